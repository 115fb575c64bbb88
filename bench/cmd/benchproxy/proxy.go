package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"github.com/btviz/btviz/bench/internal/benchproc"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/record"
)

// serveProxy runs a recording proxy in front of -upstream until SIGTERM,
// recording as `btviz record` does (record.FileSink: every Op aggregated
// by keyspace.RecordingBuilder, the recording written to -out every 5 s),
// then prints the recorder's counters as a JSON line. With
// BENCHPROXY_CPUPROFILE=FILE it writes a CPU profile of its whole life.
func serveProxy(args []string) error {
	flags := flag.NewFlagSet("proxy", flag.ContinueOnError)
	upstreamAddr := flags.String("upstream", "", "emulator host:port")
	addrFile := flags.String("addr-file", "", "file to write the proxy's host:port to once listening")
	out := flags.String("out", "", "recording file to write")
	if err := flags.Parse(args); err != nil {
		return err
	}
	stopProfile, err := benchproc.StartCPUProfile("BENCHPROXY_CPUPROFILE")
	if err != nil {
		return err
	}
	defer stopProfile()
	upstream, err := record.DialEmulator(*upstreamAddr)
	if err != nil {
		return err
	}
	defer upstream.Close()
	sink := record.NewFileSink(*out, keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Upstream: upstream.Where}, nil)
	rec := record.NewRecorder(sink, record.RecorderOptions{})
	proxy, err := record.Listen("127.0.0.1:0", upstream, record.Options{Recorder: rec})
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- proxy.Serve() }()
	if err := os.WriteFile(*addrFile, []byte(proxy.Addr()), 0o644); err != nil {
		return err
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-stop:
	case err := <-served:
		return err
	}
	proxy.Stop(context.Background())
	if err := rec.Close(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(rec.Stats())
}
