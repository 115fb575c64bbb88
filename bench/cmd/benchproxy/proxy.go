package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/record"
)

// prefixTotals aggregates the recording in memory, by table and first
// key segment: calls, rows and bytes read and written. It stands for the
// recording file's traffic builder, at about its cost per Op.
type prefixTotals struct {
	byPrefix map[string]*[5]int64
}

func (s *prefixTotals) Add(op *keyspace.Op) {
	at := func(key keyspace.Key) *[5]int64 {
		prefix, _, _ := strings.Cut(string(key), "#")
		name := op.Table + "/" + prefix
		totals := s.byPrefix[name]
		if totals == nil {
			totals = new([5]int64)
			s.byPrefix[name] = totals
		}
		return totals
	}
	if !op.Part {
		for _, k := range op.Keys {
			at(k)[0]++
		}
	}
	for _, r := range op.RowsRead {
		t := at(r.Key)
		t[1]++
		t[2] += r.Bytes
	}
	for _, r := range op.RowsWritten {
		t := at(r.Key)
		t[3]++
		t[4] += r.Bytes
	}
}

func (s *prefixTotals) Flush() error { return nil }

// serveProxy runs a recording proxy in front of -upstream until SIGTERM,
// then prints the recorder's counters as a JSON line. With
// BENCHPROXY_CPUPROFILE=FILE it writes a CPU profile of its whole life.
func serveProxy(args []string) error {
	if path := os.Getenv("BENCHPROXY_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	flags := flag.NewFlagSet("proxy", flag.ContinueOnError)
	upstreamAddr := flags.String("upstream", "", "emulator host:port")
	addrFile := flags.String("addr-file", "", "file to write the proxy's host:port to once listening")
	if err := flags.Parse(args); err != nil {
		return err
	}
	upstream, err := record.DialEmulator(*upstreamAddr)
	if err != nil {
		return err
	}
	defer upstream.Close()
	rec := record.NewRecorder(&prefixTotals{byPrefix: map[string]*[5]int64{}}, record.RecorderOptions{})
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
