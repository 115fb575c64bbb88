package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
)

// serve runs bttest on a free loopback port, writes its address to
// -addr-file and serves until SIGTERM or SIGINT. With -control-file it
// also serves, on another loopback port written to that file, GET /gc,
// which collects the emulator's garbage before it answers: report calls
// it before every measurement, so that each starts from the same
// emulator heap instead of one that a previous scan left half-full of
// garbage (a collection of the emulator's heap, over a gigabyte, costs
// a second of CPU and would otherwise land at a random point of a
// random run).
func serve(args []string) error {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	addrFile := flags.String("addr-file", "", "file to write host:port to once listening")
	controlFile := flags.String("control-file", "", "file to write the host:port of the /gc control endpoint to")
	pprofAddr := flags.String("pprof", "", "serve net/http/pprof on this address, to profile the emulator")
	tablets := flags.Int("tablets", 0, "answer SampleRowKeys like Cloud Bigtable with this many tablets, one 5× and one a fifth the others' size (internal/emulator/cloudlike), and count the rows ReadRows sends, served as GET /reads on the control endpoint")
	if err := flags.Parse(args); err != nil {
		return err
	}
	const maxMessage = 256 << 20 // as the official emulator
	options := []grpc.ServerOption{grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage)}
	counter := &cloudlike.Counter{}
	if *tablets > 0 {
		options = append(options, cloudlike.ServerOptions(cloudlike.Uneven(*tablets, 5, 0.2), counter)...)
	}
	srv, err := bttest.NewServer("127.0.0.1:0", options...)
	if err != nil {
		return fmt.Errorf("starting the emulator: %w", err)
	}
	defer srv.Close()
	if *pprofAddr != "" {
		go http.ListenAndServe(*pprofAddr, nil)
	}
	if *controlFile != "" {
		listener, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("starting the control endpoint: %w", err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/gc", func(w http.ResponseWriter, _ *http.Request) {
			runtime.GC()
			fmt.Fprintln(w, "ok")
		})
		// /reads answers the rows and ReadRows calls counted since the
		// last /reads, and starts counting afresh.
		mux.HandleFunc("/reads", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintln(w, counter.Rows(), counter.Calls())
			counter.Reset()
		})
		go http.Serve(listener, mux)
		if err := os.WriteFile(*controlFile, []byte(listener.Addr().String()), 0o644); err != nil {
			return err
		}
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(srv.Addr), 0o644); err != nil {
			return err
		}
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	return nil
}
