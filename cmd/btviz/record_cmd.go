package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/record"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/tui"
	"github.com/btviz/btviz/internal/units"
)

// Defaults of `btviz record`.
const (
	defaultRecordListen = "127.0.0.1:8087"
	// recordStopGrace is how long Ctrl+C waits for calls in flight.
	recordStopGrace = 5 * time.Second
	// recordWindDown is how long btviz lets a recording stop by itself
	// after Ctrl+C before it abandons it: the calls in flight and the
	// writing of the file (a second Ctrl+C stops at once).
	recordWindDown = recordStopGrace + 10*time.Second
)

// recordFlags are the flags of `btviz record`.
type recordFlags struct {
	listen, upstream, out string
	project, instance     string
	duration              time.Duration
	tui                   bool
	screenshots           string // --screenshot-dir, for --tui
}

func (a *app) recordCommand() *cobra.Command {
	var f recordFlags
	cmd := &cobra.Command{
		Use:   "record --out FILE [--upstream HOST:PORT | --project P --instance I]",
		Short: "Record an application's Bigtable traffic through a proxy, for a Key Visualizer heatmap",
		Long: "Run a recording proxy: point an application's BIGTABLE_EMULATOR_HOST at --listen, and every\n" +
			"call it makes goes to the upstream unchanged — an emulator (--upstream), or a Cloud Bigtable\n" +
			"instance (--project, --instance) with your Application Default Credentials — while btviz\n" +
			"records the reads and writes of every table: operations, rows and bytes, per key range and\n" +
			"over time. The recording is written to --out every few seconds and when you stop with\n" +
			"Ctrl+C (or after --duration); open it with `btviz open FILE`.\n\n" +
			"The proxy forwards, it never answers in the upstream's place: an application gets exactly\n" +
			"what the upstream sends, writes included. While the upstream does not answer, calls get\n" +
			"Unavailable and the proxy keeps running.\n\n" +
			"To record an application against a Cloud Bigtable instance for ten minutes:\n\n" +
			"    btviz record --project my-project --instance prod --out prod.btviz --duration 10m",
		Example: "  btviz emulator --seed all                                   # terminal 1\n" +
			"  btviz record --upstream localhost:8086 --out traffic.btviz  # terminal 2; Ctrl+C writes it\n" +
			"  BIGTABLE_EMULATOR_HOST=127.0.0.1:8087 ./my-app              # terminal 3: your application\n" +
			"  btviz open traffic.btviz",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.record(cmd.Context(), f)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&f.listen, "listen", defaultRecordListen, "host:port to serve the proxy on; clients set BIGTABLE_EMULATOR_HOST to it")
	flags.StringVar(&f.upstream, "upstream", "", "host:port of the emulator to forward to")
	flags.StringVar(&f.project, "project", "", "Cloud Bigtable project to forward to (default: `project` in ~/.cbtrc, $GOOGLE_CLOUD_PROJECT); with --upstream, record only this project's calls")
	flags.StringVar(&f.instance, "instance", "", "Cloud Bigtable instance to forward to (default: `instance` in ~/.cbtrc); with --upstream, record only this instance's calls")
	flags.StringVar(&f.out, "out", "", "recording file to write")
	flags.DurationVar(&f.duration, "duration", 0, "stop by itself after this long, e.g. 10m (default: run until Ctrl+C)")
	flags.BoolVar(&f.tui, "tui", false, "show the traffic live, as a heatmap that grows while the application runs; quitting the view stops the recording")
	registerScreenshotDir(cmd, &f.screenshots)
	return cmd
}

// recordingSession is one run of `btviz record`, set up.
type recordingSession struct {
	upstream *record.Upstream
	target   connect.Target // the instance recorded; empty on an emulator unless named
	source   keyspace.Source
}

// record runs the proxy until ctx ends (Ctrl+C) or the duration passes.
func (a *app) record(ctx context.Context, f recordFlags) error {
	if f.out == "" {
		return usageErrorf("say where to write the recording: --out FILE (e.g. --out traffic.btviz)")
	}
	if f.duration < 0 {
		return usageErrorf("--duration %v: give a positive duration such as 30s or 10m, or leave it out to run until Ctrl+C", f.duration)
	}
	if f.tui && f.duration > 0 {
		return usageErrorf("--tui records until you quit the view: leave out --duration, or leave out --tui to stop after %s", f.duration)
	}
	if f.screenshots != "" && !f.tui {
		return usageErrorf("--screenshot-dir is where the live view's s key saves screenshots: it goes with --tui")
	}
	screenshots, err := screenshotDir(f.screenshots)
	if err != nil {
		return err
	}
	if f.tui {
		if err := a.requireTerminal(); err != nil {
			return err
		}
	}
	a.endsBySignal() // Ctrl+C is how a recording ends, and writes it
	a.allowWindDown(recordWindDown)
	session, err := a.recordUpstream(ctx, f)
	if err != nil {
		return err
	}
	defer session.upstream.Close()

	// The sink writes no file until the proxy holds its port: a record
	// that cannot start leaves an earlier recording at --out as it was.
	sink := record.NewFileSink("", keyspace.RecordingMeta{
		Source: session.source, Project: session.target.Project, Instance: session.target.Instance,
		Upstream: session.upstream.Where,
	}, nil)
	var instance string
	if session.target.Project != "" && session.target.Instance != "" {
		instance = record.InstanceName(session.target.Project, session.target.Instance)
	}
	progress := &recordProgress{stderr: a.stderr, out: f.out}
	opts, logf := record.RecorderOptions{Instance: instance, Flushed: progress.flushed}, progress.logf
	if f.tui {
		// The view's status line says it all; lines on stderr would
		// tear the screen.
		opts.Flushed, logf = nil, nil
	}
	p, err := listenLiveProxy(f.listen, session.upstream, sink, opts, logf)
	if err != nil {
		return usageError(err)
	}
	if err := sink.WriteTo(f.out); err != nil {
		p.stop()
		return usageErrorf("cannot write the recording to --out %s: %w; nothing was recorded: give --out a path in a directory you can write to", f.out, err)
	}
	// Only now, so that clients in a rush cannot take the descriptors
	// the first write needs.
	p.serve()
	if f.tui {
		err := a.recordLive(ctx, p, session, f, screenshots)
		if errors.As(err, new(interrupted)) {
			err = nil // SIGINT or SIGTERM ends a recording as quitting the view does
		}
		return errors.Join(err, a.endRecording(p, f))
	}
	a.announceRecording(p.proxy.Addr(), session, f)

	var stopped <-chan time.Time
	if f.duration > 0 {
		timer := time.NewTimer(f.duration)
		defer timer.Stop()
		stopped = timer.C
	}
	select {
	case <-ctx.Done():
	case <-stopped:
	case err := <-p.served:
		p.served <- err // stop reads it again
	}
	return a.endRecording(p, f)
}

// endRecording stops the proxy, writes the recording a last time and
// says what it holds.
func (a *app) endRecording(p *liveProxy, f recordFlags) error {
	serveErr, flushErr := p.stop()
	stats := p.recorder.Stats()
	notFound, overLimit := p.sink.LeftOut()
	fmt.Fprintf(a.stderr, "%s\n", describeRecording(stats, p.sink.Tables(), notFound, overLimit, time.Since(p.started), f.out, flushErr))
	if flushErr != nil {
		return errors.Join(notWritten(p.sink, stats, f.out, flushErr), serveErr)
	}
	return serveErr
}

// notWritten explains a recording whose last write failed (a full disk,
// a directory gone read-only): what the file holds from the write before
// it, if one succeeded (exit 3, as a scan that failed part-way), or that
// nothing was written (exit 2).
func notWritten(sink *record.FileSink, stats record.Stats, out string, err error) error {
	written, ok := sink.Written()
	if !ok {
		return usageErrorf("writing the recording to %s failed: %w; nothing was written: free space or give --out a writable path, and record again", out, err)
	}
	return partialError(fmt.Errorf("writing the recording to %s at the end failed: %w; %s holds the recording as of its last write at %s, %s of the %s calls, marked incomplete: free space (or make its directory writable) and record again",
		out, err, out, written.At.Format(time.TimeOnly), units.Thousands(written.Calls), units.Thousands(stats.Calls)))
}

// recordLive shows the recording as it grows (`btviz record --tui`): the
// tables of the upstream and those the traffic touched, each table's
// traffic joined with a scan of what it stores, read directly from the
// upstream (so that the view's own reads are not recorded).
func (a *app) recordLive(ctx context.Context, p *liveProxy, up recordingSession, f recordFlags, screenshots string) error {
	t := up.target
	if up.source == keyspace.SourceEmulator {
		t.EmulatorHost = f.upstream
		if t.Project == "" {
			t.Project = connect.EmulatorProject
		}
		if t.Instance == "" {
			t.Instance = connect.EmulatorInstance
		}
	}
	cfg := tui.Config{Recording: p.liveRecording, Source: session.NewRecordingSource(p.liveRecording, nil), ScreenshotDir: screenshots}
	if conn, err := connect.Open(ctx, t); err == nil {
		defer conn.Close()
		cfg.Source = session.NewRecordingSource(p.liveRecording, session.NewConnSource(conn, sampler.Options{}))
	}
	return a.runTUI(ctx, cfg)
}

// recordUpstream resolves and dials where the proxy forwards to.
func (a *app) recordUpstream(ctx context.Context, f recordFlags) (recordingSession, error) {
	if f.upstream != "" {
		if sameAddress(f.upstream, f.listen) {
			return recordingSession{}, usageErrorf("--upstream %s is the proxy's own --listen address: name the emulator the calls go to, e.g. --upstream localhost:8086", f.upstream)
		}
		upstream, err := record.DialEmulator(f.upstream)
		if err != nil {
			return recordingSession{}, usageError(err)
		}
		target := connect.Target{Project: f.project, Instance: f.instance, EmulatorHost: f.upstream}
		return recordingSession{upstream: upstream, target: target, source: keyspace.SourceEmulator}, nil
	}
	rc, err := connect.LoadCbtrc(connect.CbtrcPath(a.getenv))
	if err != nil {
		return recordingSession{}, usageError(err)
	}
	// The emulator variable is what the proxy's clients read; for the
	// proxy itself it would only invite a loop.
	withoutEmulator := func(name string) string {
		if name == connect.EmulatorHostEnv {
			return ""
		}
		return a.getenv(name)
	}
	target, err := connect.Resolve(connect.Flags{Project: f.project, Instance: f.instance}, withoutEmulator, rc)
	if err != nil {
		return recordingSession{}, usageErrorf("name the upstream: --upstream HOST:PORT for an emulator, or a Cloud Bigtable instance (%w)", err)
	}
	upstream, err := record.DialCloud(ctx, target)
	if err != nil {
		return recordingSession{}, usageError(err)
	}
	return recordingSession{upstream: upstream, target: target, source: keyspace.SourceBigtable}, nil
}

// announceRecording says where the proxy listens and how to use it.
func (a *app) announceRecording(addr string, session recordingSession, f recordFlags) {
	fmt.Fprintf(a.stdout, "Recording proxy on %s, forwarding to %s.\n", addr, escape.Text(session.upstream.Where))
	if session.target.Instance != "" {
		fmt.Fprintf(a.stdout, "Recording the calls on %s.\n", escape.Text(session.target.Where()))
	}
	fmt.Fprintf(a.stdout, "Point your application at it:\n\n  export %s=%s\n\n", connect.EmulatorHostEnv, addr)
	stop := "Press Ctrl+C to stop"
	if f.duration > 0 {
		stop = fmt.Sprintf("Stops after %s (or Ctrl+C)", units.Duration(f.duration))
	}
	fmt.Fprintf(a.stdout, "%s; the recording goes to %s every %s and at the end.\n", stop, f.out, units.Duration(record.DefaultFlushEvery))
	if session.source == keyspace.SourceBigtable && !loopback(addr) {
		fmt.Fprintf(a.stderr, "btviz: warning: %s is reachable from other machines, and the proxy adds your credentials to every call it forwards: anyone who reaches it acts as you. Use --listen 127.0.0.1:PORT unless you mean it.\n", addr)
	}
	if f.upstream != "" {
		conn, err := (&net.Dialer{Timeout: time.Second}).Dial("tcp", strings.TrimPrefix(f.upstream, "http://"))
		if err != nil {
			fmt.Fprintf(a.stderr, "btviz: no emulator answers at %s yet (%v); calls get Unavailable until one does\n", f.upstream, err)
		} else {
			conn.Close()
		}
	}
}

// sameAddress reports whether two host:port addresses name the same
// local port, as far as can be told without resolving names.
func sameAddress(a, b string) bool {
	hostA, portA, errA := net.SplitHostPort(strings.TrimPrefix(a, "http://"))
	hostB, portB, errB := net.SplitHostPort(b)
	if errA != nil || errB != nil || portA != portB {
		return false
	}
	local := func(h string) bool {
		return h == "" || h == "localhost" || h == "0.0.0.0" || h == "::" || net.ParseIP(h).IsLoopback()
	}
	return hostA == hostB || local(hostA) && local(hostB)
}

// loopback reports whether a listening address (host:port, as the
// listener reports it) takes connections from this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && (host == "localhost" || net.ParseIP(host).IsLoopback())
}

// recordProgress prints the proxy's news on stderr: the upstream going
// down or up, flush failures, and the calls recorded so far.
type recordProgress struct {
	stderr    io.Writer
	out       string
	lastCalls int64
	failing   bool
}

func (p *recordProgress) logf(format string, args ...any) {
	fmt.Fprintf(p.stderr, "btviz: %s\n", escape.Text(fmt.Sprintf(format, args...)))
}

// flushed runs on the recorder's goroutine after every flush. The final
// flush's failure is told by the command's error, which says what the
// file holds.
func (p *recordProgress) flushed(info record.FlushInfo, err error) {
	stats := info.Stats
	switch {
	case info.Final:
		return
	case err != nil && !p.failing:
		p.failing = true
		fmt.Fprintf(p.stderr, "btviz: writing the recording to %s failed: %v; still recording, trying again in %s\n", p.out, err, units.Duration(record.DefaultFlushEvery))
	case err == nil && p.failing:
		p.failing = false
		fmt.Fprintf(p.stderr, "btviz: the recording is written to %s again\n", p.out)
	}
	if err == nil && stats.Calls != p.lastCalls {
		p.lastCalls = stats.Calls
		fmt.Fprintf(p.stderr, "%s calls recorded so far\n", units.Thousands(stats.Calls))
	}
}

// tablesNamed is how many tables the line that ends a recording names.
const tablesNamed = 10

// describeRecording sums up a finished recording in one line.
func describeRecording(stats record.Stats, tables []string, notFound, overLimit *keyspace.TablesLeftOut, took time.Duration, out string, flushErr error) string {
	names := make([]string, 0, min(len(tables), tablesNamed+1))
	for _, t := range tables[:min(len(tables), tablesNamed)] {
		names = append(names, escape.Text(t))
	}
	if len(tables) > tablesNamed {
		names = append(names, fmt.Sprintf("and %d more", len(tables)-tablesNamed))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "recorded %s calls in %s", units.Thousands(stats.Calls), units.Duration(took))
	if len(names) > 0 {
		fmt.Fprintf(&b, " on %d table(s): %s", len(tables), strings.Join(names, ", "))
	}
	if notFound != nil {
		fmt.Fprintf(&b, "; %s calls on tables that do not exist (NotFound) were counted, not recorded: %s", units.Thousands(notFound.Calls), leftOutNames(notFound))
	}
	if overLimit != nil {
		fmt.Fprintf(&b, "; %s calls on tables beyond the %d a recording holds were counted, not recorded: %s",
			units.Thousands(overLimit.Calls), keyspace.RecordingTables, leftOutNames(overLimit))
	}
	if stats.Unrecorded > 0 {
		fmt.Fprintf(&b, "; %s calls named no table or another instance and were only forwarded", units.Thousands(stats.Unrecorded))
	}
	if stats.Undecodable > 0 {
		fmt.Fprintf(&b, "; %s messages could not be decoded (forwarded all the same)", units.Thousands(stats.Undecodable))
	}
	if stats.TooLarge > 0 {
		fmt.Fprintf(&b, "; %s messages over %s were forwarded with only their start decoded (rows a read returned in them are not counted)",
			units.Thousands(stats.TooLarge), units.Bytes(float64(record.MaxDecodedMessageBytes)))
	}
	if flushErr == nil {
		fmt.Fprintf(&b, "; wrote %s", out)
	}
	return b.String()
}

// leftOutTablesShown is how many of the tables a recording left out a
// message names.
const leftOutTablesShown = 5

// leftOutNames names the tables a recording left out, the most called
// first, and says how many more there were.
func leftOutNames(l *keyspace.TablesLeftOut) string {
	names := l.Names()
	shown := names[:min(len(names), leftOutTablesShown)]
	quoted := make([]string, len(shown))
	for i, name := range shown {
		quoted[i] = escape.Quote(name)
	}
	text := strings.Join(quoted, ", ")
	if len(names) > len(shown) {
		text += ", …"
	}
	return text
}
