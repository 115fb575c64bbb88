package emulator

import (
	"context"
	"errors"
	"fmt"

	"cloud.google.com/go/bigtable"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Dial connects to a Bigtable emulator at addr (host:port), without
// credentials or TLS, and returns a data client and an admin client for
// project and instance. Each client owns its own gRPC connection, allowing
// messages up to [MaxMessageBytes]; close both when done. Dial does not read
// or set BIGTABLE_EMULATOR_HOST and sends no client metrics.
func Dial(ctx context.Context, addr, project, instance string) (*bigtable.Client, *bigtable.AdminClient, error) {
	dataConn, err := dialEmulator(addr)
	if err != nil {
		return nil, nil, err
	}
	client, err := bigtable.NewClientWithConfig(ctx, project, instance,
		bigtable.ClientConfig{
			MetricsProvider: bigtable.NoopMetricsProvider{},
			DisableSession:  true,
		},
		option.WithGRPCConn(dataConn))
	if err != nil {
		err = fmt.Errorf("create Bigtable data client for emulator at %s (project %q, instance %q): %w", addr, project, instance, err)
		return nil, nil, errors.Join(err, dataConn.Close())
	}

	adminConn, err := dialEmulator(addr)
	if err != nil {
		return nil, nil, errors.Join(err, client.Close())
	}
	admin, err := bigtable.NewAdminClient(ctx, project, instance, option.WithGRPCConn(adminConn))
	if err != nil {
		err = fmt.Errorf("create Bigtable admin client for emulator at %s (project %q, instance %q): %w", addr, project, instance, err)
		return nil, nil, errors.Join(err, client.Close(), adminConn.Close())
	}
	return client, admin, nil
}

// dialEmulator opens an insecure gRPC connection to addr with the emulator's
// message size limits. The connection is lazy: an unreachable address shows
// up as an error on the first call, not here.
func dialEmulator(addr string) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient(addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(MaxMessageBytes),
			grpc.MaxCallSendMsgSize(MaxMessageBytes),
		),
	)
	if err != nil {
		return nil, fmt.Errorf("dial Bigtable emulator at %q: %w; expected host:port such as localhost:8086", addr, err)
	}
	return conn, nil
}
