package main

import (
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
)

// defaultEmulatorPort is the port gcloud's Bigtable emulator uses.
const defaultEmulatorPort = 8086

func (a *app) emulatorCommand() *cobra.Command {
	var host string
	var port int
	var seedNames string
	var project, instance string
	cmd := &cobra.Command{
		Use:   "emulator [--port N] [--seed NAME,…|all]",
		Short: "Serve an in-memory Bigtable emulator, optionally loaded with demo tables",
		Long: "Serve the Bigtable emulator (the same in-memory server as cbtemulator) until interrupted.\n" +
			"Point btviz, cbt or your own code at it with the printed BIGTABLE_EMULATOR_HOST line.",
		Example: "  btviz emulator --seed all                     # terminal 1\n" +
			"  export BIGTABLE_EMULATOR_HOST=localhost:8086  # terminal 2\n" +
			"  btviz --table social-celebrity",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if port < 0 || port > 65535 {
				return usageErrorf("--port %d: give a port from 0 to 65535 (0 picks a free one)", port)
			}
			var scenarios []demo.Scenario
			if seedNames != "" {
				var err error
				if scenarios, err = demo.Lookup(seedNames); err != nil {
					return usageError(err)
				}
			}
			addr := net.JoinHostPort(host, strconv.Itoa(port))
			srv, err := emulator.Start(addr)
			if err != nil {
				cause := err
				if op := (*net.OpError)(nil); errors.As(err, &op) {
					cause = op.Err // "listen tcp" says nothing to the reader
				}
				return usageErrorf("cannot serve the emulator on %s: %v; pick another --port (0 picks a free one) or --host", addr, cause)
			}
			defer srv.Close()
			target := connect.Target{Project: project, Instance: instance, EmulatorHost: srv.Addr}
			if len(scenarios) > 0 {
				if err := a.seed(cmd.Context(), target, scenarios); err != nil {
					return err
				}
			}
			fmt.Fprintf(a.stdout, "Bigtable emulator serving on %s (project %q, instance %q hold the demo tables).\n", srv.Addr, project, instance)
			fmt.Fprintf(a.stdout, "In another terminal:\n\n  export %s=%s\n  btviz --emulator\n\nPress Ctrl+C to stop.\n", connect.EmulatorHostEnv, srv.Addr)
			<-cmd.Context().Done()
			fmt.Fprintln(a.stderr, "emulator stopped")
			return nil
		},
	}
	cmd.Flags().StringVar(&host, "host", "localhost", "address to listen on")
	cmd.Flags().IntVar(&port, "port", defaultEmulatorPort, "port to listen on (0 picks a free one)")
	cmd.Flags().StringVar(&seedNames, "seed", "", "demo scenarios to load first, comma-separated, or \"all\"")
	cmd.Flags().StringVar(&project, "project", connect.EmulatorProject, "project to load the demo tables into")
	cmd.Flags().StringVar(&instance, "instance", connect.EmulatorInstance, "instance to load the demo tables into")
	return cmd
}
