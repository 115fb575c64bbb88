package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/record"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/tui"
)

// liveRecording is what the interactive view reads of a recording in
// progress ([source.Recording]): the sink's traffic so far, the recorder's
// counters, and the proxy's view of its upstream.
type liveRecording struct {
	sink     *record.FileSink
	recorder *record.Recorder
	proxy    *record.Proxy
	upstream string
	started  time.Time
	workload string
}

func (l *liveRecording) Tables() []string { return l.sink.Tables() }

func (l *liveRecording) Snapshot(table string) *keyspace.Snapshot { return l.sink.Snapshot(table) }

func (l *liveRecording) Status() source.RecordingStatus {
	return source.RecordingStatus{
		Listen: l.proxy.Addr(), Upstream: l.upstream, Elapsed: time.Since(l.started),
		Calls: l.recorder.Stats().Calls, UpstreamErr: l.proxy.UpstreamErr(), Workload: l.workload,
		Failed: l.proxy.Crash(),
	}
}

// liveProxy is a recording proxy that holds its port, and serves in the
// background once told to.
type liveProxy struct {
	*liveRecording
	served chan error // what Serve returned; nil until serve starts it
}

// listenLiveProxy holds listen for a recording proxy in front of
// upstream, recording into sink; logf (when not nil) hears of the
// upstream going down and up. The proxy takes no connection until
// [liveProxy.serve]: clients that come sooner wait in the system's
// queue, and take none of the descriptors that the recording's first
// write needs.
func listenLiveProxy(listen string, upstream *record.Upstream, sink *record.FileSink, opts record.RecorderOptions, logf func(string, ...any)) (*liveProxy, error) {
	recorder := record.NewRecorder(sink, opts)
	proxy, err := record.Listen(listen, upstream, record.Options{Recorder: recorder, Logf: logf})
	if err != nil {
		recorder.Close()
		return nil, err
	}
	return &liveProxy{
		liveRecording: &liveRecording{sink: sink, recorder: recorder, proxy: proxy, upstream: upstream.Where, started: time.Now()},
	}, nil
}

// serve starts taking connections, in the background.
func (p *liveProxy) serve() {
	served := make(chan error, 1)
	p.served = served
	go func() { served <- p.proxy.Serve() }()
}

// stop stops the proxy, waiting up to [recordStopGrace] for calls in
// flight, and closes the recorder, which flushes the sink a last time. It
// returns why serving failed, if it did (a bug that stopped the proxy
// too, even one that came after Serve returned), and the last flush's
// error.
func (p *liveProxy) stop() (serveErr, flushErr error) {
	ctx, cancel := context.WithTimeout(context.Background(), recordStopGrace)
	defer cancel()
	p.proxy.Stop(ctx)
	if p.served != nil {
		serveErr = <-p.served
	}
	if crash := p.proxy.Crash(); crash != nil && !errors.Is(serveErr, crash) {
		serveErr = errors.Join(serveErr, crash)
	}
	return serveErr, p.recorder.Close()
}

// demoTablets is how many tablets the demo's emulator cuts a table into.
const demoTablets = 16

// trafficDemo is `btviz --emulator --traffic NAME`: an embedded emulator
// loaded with the workload's demo table, a recording proxy in front of
// it, the workload's load generator calling through the proxy with the
// official client, and the live view of the table with its traffic, the
// table scanned with scanOpts.
func (a *app) trafficDemo(ctx context.Context, name string, cfg tui.Config, scanOpts sampler.Options) error {
	w, err := loadgen.Lookup(name)
	if err != nil {
		return usageError(err)
	}
	scenarios, err := demo.Lookup(w.Table)
	if err != nil {
		return usageError(err)
	}
	// The emulator answers SampleRowKeys with tablets, as Cloud Bigtable
	// does, so that the simulated hot tablets are on Cloud-like tablets.
	srv, err := emulator.Start("127.0.0.1:0", cloudlike.ServerOptions(cloudlike.Layout{Tablets: demoTablets}, nil)...)
	if err != nil {
		return fmt.Errorf("starting the embedded emulator: %w", err)
	}
	defer srv.Close()
	t := connect.Target{EmulatorHost: srv.Addr, Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, Table: w.Table}
	if err := a.seed(ctx, t, scenarios); err != nil {
		return err
	}
	upstream, err := record.DialEmulator(srv.Addr)
	if err != nil {
		return err
	}
	defer upstream.Close()
	meta := keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Project: t.Project, Instance: t.Instance, Upstream: upstream.Where}
	p, err := listenLiveProxy("127.0.0.1:0", upstream, record.NewFileSink("", meta, nil), record.RecorderOptions{}, nil)
	if err != nil {
		return err
	}
	p.serve()
	p.workload = w.Name
	defer p.stop() // nothing to write: the demo keeps its recording in memory

	// The workload calls through the proxy; the view scans the emulator
	// directly, so that its own reads are not in the recording.
	client, admin, err := emulator.Dial(ctx, p.proxy.Addr(), t.Project, t.Instance)
	if err != nil {
		return err
	}
	defer client.Close()
	admin.Close()
	loadCtx, stopLoad := context.WithCancel(ctx)
	loaded := make(chan error, 1)
	go func() {
		_, err := loadgen.Run(loadCtx, client, w.Name, loadgen.Options{})
		loaded <- err
	}()
	defer func() { stopLoad(); <-loaded }()

	conn, err := a.open(ctx, t)
	if err != nil {
		return err
	}
	defer conn.Close()
	cfg.Table = w.Table
	cfg.Recording = p.liveRecording
	cfg.HotTablets = session.SimulatedHotTablets{}
	cfg.Source = session.NewRecordingSource(p.liveRecording, session.NewConnSource(conn, scanOpts))
	return a.runTUI(ctx, cfg)
}

// listWorkloads prints the demo traffic workloads, as `btviz seed --list`
// prints the scenarios.
func (a *app) listWorkloads() error {
	w := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "WORKLOAD\tTABLE\tWHAT IT DOES")
	for _, wl := range loadgen.Workloads() {
		fmt.Fprintf(w, "%s\t%s\t%s\n", wl.Name, wl.Table, wl.Description)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(a.stdout, "\nbtviz --emulator --traffic WORKLOAD shows one live; btviz record records your own application's.")
	return err
}
