package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	"google.golang.org/api/option"
	gtransport "google.golang.org/api/transport/grpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/btviz/btviz/internal/connect"
)

// Cloud Bigtable's endpoints: the data API, and the admin API that every
// other service the proxy forwards (table and instance admin, long
// running operations) lives on.
const (
	cloudDataEndpoint  = "bigtable.googleapis.com:443"
	cloudAdminEndpoint = "bigtableadmin.googleapis.com:443"
)

// maxMessageBytes is the largest message the proxy passes in either
// direction. It is above Bigtable's and the emulators' own 256 MiB, so
// that what refuses an oversized message is the upstream, with its own
// error, and never the proxy.
const maxMessageBytes = 512 << 20

// reconnectBackoff is how soon the proxy retries an emulator that
// refused a connection.
var reconnectBackoff = backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second}

// Upstream is where the proxy forwards calls: an emulator, or a Cloud
// Bigtable instance. Calls of the data API go to one connection, every
// other call to the other; on an emulator both are the same.
type Upstream struct {
	// Where says what the upstream is, for messages: "the emulator at
	// localhost:8086", "Cloud Bigtable (bigtable.googleapis.com:443)".
	Where string
	// emulator is set for an emulator: then the client's own metadata
	// goes through whole; Cloud calls carry the proxy's credentials.
	emulator    bool
	data, admin *grpc.ClientConn
	// relayAddr is the emulator's host:port, which client connections
	// are relayed to ([relay]); empty for Cloud Bigtable.
	relayAddr string
}

// DialEmulator connects to an emulator at hostport, without TLS or
// credentials, as the clients themselves would. The connection is lazy:
// an emulator that is down (or not yet up) shows up as Unavailable on
// the calls, not here.
func DialEmulator(hostport string) (*Upstream, error) {
	hostport = strings.TrimPrefix(strings.TrimSpace(hostport), "http://")
	if _, port, err := net.SplitHostPort(hostport); err != nil || port == "" {
		return nil, fmt.Errorf("upstream %q is not host:port: give the emulator as host:port, e.g. localhost:8086", hostport)
	}
	conn, err := grpc.NewClient("passthrough:///"+hostport,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		// An emulator that was down is used again within a second of
		// coming back, not after gRPC's default backoff of up to 2 min.
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: reconnectBackoff, MinConnectTimeout: 5 * time.Second}),
		grpc.WithStaticStreamWindowSize(streamWindowBytes),
		grpc.WithStaticConnWindowSize(connWindowBytes),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageBytes), grpc.MaxCallSendMsgSize(maxMessageBytes)))
	if err != nil {
		return nil, fmt.Errorf("upstream %q: %w; give the emulator as host:port, e.g. localhost:8086", hostport, err)
	}
	return &Upstream{Where: "the emulator at " + hostport, emulator: true, data: conn, admin: conn, relayAddr: hostport}, nil
}

// DialCloud connects to Cloud Bigtable with TLS and Application Default
// Credentials (or t.Creds, a service-account key file, and t's endpoint
// overrides, as ~/.cbtrc gives them), adding an OAuth token to every
// call. This path is not exercised by the tests, which have no
// credentials: it is kept to the one library call that every Google
// client makes.
func DialCloud(ctx context.Context, t connect.Target) (*Upstream, error) {
	common := []option.ClientOption{
		option.WithGRPCDialOption(grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageBytes), grpc.MaxCallSendMsgSize(maxMessageBytes))),
	}
	if t.Creds != "" {
		common = append(common, option.WithAuthCredentialsFile(option.ServiceAccount, t.Creds))
	}
	dataEndpoint := firstNonEmpty(t.DataEndpoint, cloudDataEndpoint)
	data, err := gtransport.Dial(ctx, append([]option.ClientOption{option.WithEndpoint(dataEndpoint), option.WithScopes(bigtable.Scope)}, common...)...)
	if err != nil {
		return nil, fmt.Errorf("connecting to Cloud Bigtable (%s) with Application Default Credentials: %w; run `gcloud auth application-default login`", dataEndpoint, err)
	}
	adminEndpoint := firstNonEmpty(t.AdminEndpoint, cloudAdminEndpoint)
	admin, err := gtransport.Dial(ctx, append([]option.ClientOption{option.WithEndpoint(adminEndpoint), option.WithScopes(bigtable.AdminScope, bigtable.InstanceAdminScope)}, common...)...)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("connecting to Cloud Bigtable's admin API (%s): %w", adminEndpoint, err), data.Close())
	}
	return &Upstream{Where: "Cloud Bigtable (" + dataEndpoint + ")", data: data, admin: admin}, nil
}

// conn returns the connection a call to fullMethod goes to.
func (u *Upstream) conn(fullMethod string) *grpc.ClientConn {
	if strings.HasPrefix(fullMethod, dataService) {
		return u.data
	}
	return u.admin
}

// Close closes the upstream's connections.
func (u *Upstream) Close() error {
	if u.admin == u.data {
		return u.data.Close()
	}
	return errors.Join(u.data.Close(), u.admin.Close())
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
