package connect

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/api/option"
	gtransport "google.golang.org/api/transport/grpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/escape"
)

// maxMessageBytes matches the server-side limit of Bigtable and of the
// official emulator (256 MiB), so a row with a >10 MB cell can be read.
const maxMessageBytes = 256 << 20

// dataEndpoint is Cloud Bigtable's data API, for the raw stub.
const dataEndpoint = "bigtable.googleapis.com:443"

// Conn is an open connection to one Bigtable instance: the official
// client for reads, the admin client for table metadata, and the data
// API's generated stub for the RPCs the client wraps lossily
// (SampleRowKeys, whose byte offsets the client drops).
type Conn struct {
	Target Target
	Client *bigtable.Client
	Admin  *bigtable.AdminClient
	// Data is the raw data API on its own channel.
	Data btpb.BigtableClient

	closers []func() error
}

// Open connects to t: to t.EmulatorHost without credentials, otherwise
// to Cloud Bigtable with t.Creds or Application Default Credentials. It
// only dials; the first RPC shows whether the target is reachable.
func Open(ctx context.Context, t Target) (*Conn, error) {
	if t.IsEmulator() {
		if err := probe(ctx, t.EmulatorHost); err != nil {
			return nil, fmt.Errorf("no Bigtable emulator answers at %s (%w); start one with `btviz emulator` or `gcloud beta emulators bigtable start`, or unset %s", t.EmulatorHost, err, EmulatorHostEnv)
		}
	}
	c := &Conn{Target: t}
	clientOpts, adminOpts, err := c.options(ctx)
	if err != nil {
		c.Close()
		return nil, err
	}
	config := bigtable.ClientConfig{
		AppProfile: t.AppProfile,
		// Built-in client metrics would be exported to Cloud Monitoring
		// under the user's credentials; a read-only tool keeps quiet.
		MetricsProvider: bigtable.NoopMetricsProvider{},
	}
	c.Client, err = bigtable.NewClientWithConfig(ctx, t.Project, t.Instance, config, clientOpts...)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("connecting to %s: %w", t.Where(), err)
	}
	c.closers = append(c.closers, c.Client.Close)
	c.Admin, err = bigtable.NewAdminClient(ctx, t.Project, t.Instance, adminOpts...)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("connecting to the admin API of %s: %w", t.Where(), err)
	}
	c.closers = append(c.closers, c.Admin.Close)
	return c, nil
}

// probeTimeout bounds the reachability check of an emulator.
const probeTimeout = 3 * time.Second

// probe checks that something accepts TCP connections at host:port.
func probe(ctx context.Context, hostport string) error {
	dialer := net.Dialer{Timeout: probeTimeout}
	conn, err := dialer.DialContext(ctx, "tcp", hostport)
	if err != nil {
		return err
	}
	return conn.Close()
}

// options dials the channels: one per client on an emulator (a client
// closes the connection it is given), a pooled credentialed channel for
// the raw stub on Cloud Bigtable.
func (c *Conn) options(ctx context.Context) (client, admin []option.ClientOption, err error) {
	t := c.Target
	if t.IsEmulator() {
		var conns [3]*grpc.ClientConn
		for i := range conns {
			conns[i], err = grpc.NewClient("passthrough:///"+t.EmulatorHost,
				grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageBytes), grpc.MaxCallSendMsgSize(maxMessageBytes)))
			if err != nil {
				return nil, nil, fmt.Errorf("dialing the emulator at %s: %w", t.EmulatorHost, err)
			}
		}
		c.Data = btpb.NewBigtableClient(conns[2])
		c.closers = append(c.closers, conns[2].Close)
		return []option.ClientOption{option.WithGRPCConn(conns[0])}, []option.ClientOption{option.WithGRPCConn(conns[1])}, nil
	}
	var common []option.ClientOption
	if t.Creds != "" {
		common = append(common, option.WithAuthCredentialsFile(option.ServiceAccount, t.Creds))
	}
	client = append(client, common...)
	admin = append(admin, common...)
	if t.DataEndpoint != "" {
		client = append(client, option.WithEndpoint(t.DataEndpoint))
	}
	if t.AdminEndpoint != "" {
		admin = append(admin, option.WithEndpoint(t.AdminEndpoint))
	}
	rawOpts := append([]option.ClientOption{
		option.WithEndpoint(firstNonEmpty(t.DataEndpoint, dataEndpoint)),
		option.WithScopes(bigtable.ReadonlyScope),
		option.WithGRPCDialOption(grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageBytes))),
	}, common...)
	pool, err := gtransport.DialPool(ctx, rawOpts...)
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to %s with Application Default Credentials: %w; run `gcloud auth application-default login` or set `creds` in ~/.cbtrc", t.Where(), err)
	}
	c.Data = btpb.NewBigtableClient(pool)
	c.closers = append(c.closers, pool.Close)
	return client, admin, nil
}

// Close closes every client and channel of the connection.
func (c *Conn) Close() error {
	var errs []error
	for i := len(c.closers) - 1; i >= 0; i-- {
		if err := c.closers[i](); err != nil && status.Code(err) != codes.Canceled {
			errs = append(errs, err)
		}
	}
	c.closers = nil
	return errors.Join(errs...)
}

// TableName returns the fully qualified name of table, as the data API's
// requests take it.
func (c *Conn) TableName(table string) string {
	return fmt.Sprintf("projects/%s/instances/%s/tables/%s", c.Target.Project, c.Target.Instance, table)
}

// TableInfo describes one table of the instance.
type TableInfo struct {
	Name     string
	Families []string
}

// adminTimeout bounds a metadata call, so an unreachable target fails
// with a message instead of hanging.
const adminTimeout = 20 * time.Second

// Tables lists the instance's tables with their column families, sorted
// by name.
func (c *Conn) Tables(ctx context.Context) ([]TableInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, adminTimeout)
	defer cancel()
	names, err := c.Admin.Tables(ctx)
	if err != nil {
		return nil, c.explain(err, "listing tables")
	}
	slices.Sort(names)
	tables := make([]TableInfo, 0, len(names))
	for _, name := range names {
		info, err := c.Admin.TableInfo(ctx, name)
		if err != nil {
			return nil, c.explain(err, fmt.Sprintf("reading table %s", escape.Quote(name)))
		}
		tables = append(tables, TableInfo{Name: name, Families: familyNames(info)})
	}
	return tables, nil
}

// ErrTableNotFound is returned (wrapped) by [Conn.Table] for a missing table.
var ErrTableNotFound = errors.New("table not found")

// Table returns the description of one table, or an error wrapping
// [ErrTableNotFound] that names the tables the instance does have.
func (c *Conn) Table(ctx context.Context, table string) (TableInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, adminTimeout)
	defer cancel()
	info, err := c.Admin.TableInfo(ctx, table)
	if status.Code(err) == codes.NotFound {
		return TableInfo{}, c.tableNotFound(ctx, table)
	}
	if err != nil {
		return TableInfo{}, c.explain(err, fmt.Sprintf("reading table %s", escape.Quote(table)))
	}
	return TableInfo{Name: table, Families: familyNames(info)}, nil
}

func (c *Conn) tableNotFound(ctx context.Context, table string) error {
	names, err := c.Admin.Tables(ctx)
	hint := ""
	switch {
	case err != nil:
	case len(names) == 0 && c.Target.IsEmulator():
		hint = "; the instance has no tables: `btviz seed --scenario all` loads the demo tables"
	case len(names) == 0:
		hint = "; the instance has no tables"
	default:
		slices.Sort(names)
		if len(names) > 12 {
			names = append(names[:12], "…")
		}
		hint = "; it has: " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%w: table %s in %s%s", ErrTableNotFound, escape.Quote(table), c.Target.Where(), hint)
}

// explain turns an RPC error into a message that names the target and
// says what to try.
func (c *Conn) explain(err error, doing string) error {
	code := status.Code(err)
	if errors.Is(err, context.DeadlineExceeded) {
		code = codes.DeadlineExceeded
	}
	switch code {
	case codes.Unavailable, codes.DeadlineExceeded:
		if c.Target.IsEmulator() {
			return fmt.Errorf("%s in %s: the emulator does not answer; is it running (`btviz emulator`)? %w", doing, c.Target.Where(), err)
		}
		return fmt.Errorf("%s in %s: Bigtable does not answer; check the network and the instance name: %w", doing, c.Target.Where(), err)
	case codes.NotFound:
		return fmt.Errorf("%s in %s: not found; check --project and --instance: %w", doing, c.Target.Where(), err)
	case codes.PermissionDenied, codes.Unauthenticated:
		return fmt.Errorf("%s in %s: access denied; btviz needs roles/bigtable.reader on the instance (check `gcloud auth application-default login` or `creds` in ~/.cbtrc): %w", doing, c.Target.Where(), err)
	}
	return fmt.Errorf("%s in %s: %w", doing, c.Target.Where(), err)
}

func familyNames(info *bigtable.TableInfo) []string {
	names := slices.Clone(info.Families)
	slices.Sort(names)
	return names
}
