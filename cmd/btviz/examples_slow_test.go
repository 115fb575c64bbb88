//go:build slow

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
	"github.com/btviz/btviz/internal/testkit/hotadmin"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestE2EEveryHelpExampleRuns runs the examples of every command's
// --help, as a reader would copy them, with the built binary against the
// official emulator loaded with the demo tables (and a table "events" in
// project my-project, instance prod, which the examples for a real
// instance name; BIGTABLE_EMULATOR_HOST sends them to the emulator).
//
// Each command's examples run in order in a directory of their own that
// holds the files the examples read and do not write themselves
// (events.btviz, before.btviz, after.btviz, celebrity.btviz,
// salted.btviz, traffic.btviz, made by real scans and a real recording).
// `export NAME=VALUE` sets the environment of the lines after it; the
// servers (`btviz emulator`, `btviz record`) run in the background until
// they are ready, and a recording is stopped with Ctrl+C (SIGINT) before
// the next line reads it; an application line (`NAME=ADDR ./my-app`) is
// played by the demo load generator through ADDR; the interactive view
// runs in tmux until it draws its first screen and `q` quits it. The
// ports the examples name (8086, 8087) are moved to free ones, so the
// test runs beside anything else. An example passes when it exits 0 (1
// for a --fail-on gate a finding reached).
func TestE2EEveryHelpExampleRuns(t *testing.T) {
	t.Parallel() // long, and needs nothing another test writes: runs beside the other such tests
	btviz, emulatorBinary := buildBinaries(t)
	emu, err := cbtemulator.Run(emulatorBinary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emu.Stop)
	base := []string{connect.EmulatorHostEnv + "=" + emu.Addr, "HOME=" + t.TempDir(), "NO_COLOR=1", "COLUMNS=100"}
	fixtures := exampleFixtures(t, btviz, emu.Addr, base)

	root := (&app{getenv: func(string) string { return "" }}).rootCommand()
	ran := 0
	for _, path := range commandPaths(root) {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(cmd.Example) == "" {
			continue
		}
		name := strings.Join(append([]string{"btviz"}, path...), "_")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range fixtures {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := &exampleScript{btviz: btviz, dir: dir, env: append([]string{}, base...), ports: map[string]string{
				"8086": portOf(t, emu.Addr), "8087": fmt.Sprint(freePort(t)),
			}}
			if strings.Contains(cmd.Example, "btviz emulator") {
				s.ports["8086"] = fmt.Sprint(freePort(t)) // the example starts its own
			}
			if strings.Contains(cmd.Example, "hot-tablets") {
				// The emulator has no instance admin API: a server in
				// front of it answers ListClusters and ListHotTablets with
				// a hot tablet of table events, as Cloud Bigtable would.
				s.env = append(s.env, connect.EmulatorHostEnv+"="+exampleHotTablets(t, emu.Addr))
			}
			defer s.stopAll(t)
			for _, line := range strings.Split(cmd.Example, "\n") {
				s.run(t, line)
				ran++
			}
		})
	}
	t.Logf("ran the lines of every command's examples (%d lines)", ran)
}

// exampleScript runs one command's examples.
type exampleScript struct {
	btviz, dir string
	env        []string
	ports      map[string]string
	servers    []*exampleServer
}

// exampleServer is a btviz that serves until stopped.
type exampleServer struct {
	name   string
	cmd    *exec.Cmd
	stdout *lockedBuffer
	stderr *lockedBuffer
	record bool
}

// lockedBuffer is a buffer a process writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (s *exampleScript) run(t *testing.T, line string) {
	t.Helper()
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return
	}
	command, _ := splitComment(line)
	for from, to := range s.ports {
		command = strings.ReplaceAll(command, from, to)
	}
	words := shellWords(command)
	switch {
	case words[0] == "export":
		s.env = append(s.env, words[1:]...)
		return
	case strings.Contains(words[0], "=") && len(words) > 1 && words[1] != "btviz":
		s.application(t, words)
		return
	case words[0] != "btviz":
		t.Fatalf("example line %q runs neither btviz nor an application", line)
	}
	args := words[1:]
	switch {
	case len(args) > 0 && (args[0] == "emulator" || args[0] == "record"):
		s.serve(t, line, args)
	case len(args) == 0 || args[0] == "open" || strings.HasPrefix(args[0], "-"):
		s.stopRecordings(t)
		s.interactive(t, line, args)
	default:
		s.stopRecordings(t)
		cmd := exec.Command(s.btviz, args...)
		cmd.Dir, cmd.Env = s.dir, append(os.Environ(), s.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		gate := code == exitFindings && strings.Contains(command, "--fail-on")
		if err != nil && !gate {
			t.Errorf("example %q: exit %d\nstdout: %s\nstderr: %s", line, code, stdout.String(), stderr.String())
			return
		}
		t.Logf("example %q: exit %d, %d bytes out; %s", line, code, stdout.Len(), strings.TrimSpace(lastLine(stderr.String())))
	}
}

// serveReadyWithin is how long a server example may take to be ready:
// `btviz emulator --seed all`, built with -race, loads 23 demo tables
// first, which took over 2 minutes on CI's two cores while the slow
// tier's other packages ran beside it (73daceb's run).
const serveReadyWithin = 6 * time.Minute

// serve starts a server example in the background and waits until it is
// ready.
func (s *exampleScript) serve(t *testing.T, line string, args []string) {
	t.Helper()
	record := args[0] == "record"
	switch {
	case !record && !hasFlag(args, "--port"):
		args = append(args, "--port", s.ports["8086"])
	case record && !hasFlag(args, "--listen"):
		args = append(args, "--listen", "127.0.0.1:"+s.ports["8087"])
	}
	srv := &exampleServer{name: line, cmd: exec.Command(s.btviz, args...), stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, record: record}
	srv.cmd.Dir, srv.cmd.Env = s.dir, append(os.Environ(), s.env...)
	srv.cmd.Stdout, srv.cmd.Stderr = srv.stdout, srv.stderr
	if err := srv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.servers = append(s.servers, srv)
	ready := func() bool { return strings.Contains(srv.stdout.String(), "serving on") }
	if record {
		addr := "127.0.0.1:" + s.ports["8087"]
		ready = func() bool {
			conn, err := net.Dial("tcp", addr)
			if err == nil {
				conn.Close()
			}
			return err == nil
		}
	}
	deadline := time.Now().Add(serveReadyWithin)
	for !ready() {
		if srv.cmd.ProcessState != nil || time.Now().After(deadline) {
			t.Fatalf("example %q is not ready:\nstdout: %s\nstderr: %s", line, srv.stdout.String(), srv.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("example %q: serving", line)
}

// application plays `NAME=ADDR ./my-app` with the demo workload
// read-hotspot through ADDR.
func (s *exampleScript) application(t *testing.T, words []string) {
	t.Helper()
	_, addr, _ := strings.Cut(words[0], "=")
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	defer client.Close()
	stats, err := loadgen.Run(ctx, client, "read-hotspot", loadgen.Options{Rate: 200, Limit: 300, Seed: 1})
	if err != nil || stats.Errors > 0 {
		t.Fatalf("the application %s (the demo workload read-hotspot) through %s: %+v, %v", strings.Join(words[1:], " "), addr, stats, err)
	}
	t.Logf("example %q: played by the workload read-hotspot, %d calls", strings.Join(words, " "), stats.Calls)
}

// interactive runs the interactive view in tmux until it shows a table or
// the picker, then quits it with q.
func (s *exampleScript) interactive(t *testing.T, line string, args []string) {
	t.Helper()
	term := tuitest.Start(t, tuitest.Options{Width: 160, Height: 48, Dir: s.dir, Env: s.env}, append([]string{s.btviz}, args...)...)
	term.WaitUntil(t, 2*time.Minute, "the first screen of "+line, func(screen string) bool {
		return strings.Contains(screen, "Heatmap") || strings.Contains(screen, tuitest.PickerShown) || strings.Contains(screen, tuitest.ExitMarker)
	})
	term.Send("q")
	term.WaitExit(t, 30*time.Second)
	t.Logf("example %q: the view came up and q quit it", line)
}

// stopRecordings stops the running recordings with Ctrl+C, as a reader
// does before opening what they wrote.
func (s *exampleScript) stopRecordings(t *testing.T) {
	t.Helper()
	for _, srv := range s.servers {
		if srv.record && srv.cmd.ProcessState == nil {
			srv.stop(t)
		}
	}
}

// stopAll stops every server still running, recordings first.
func (s *exampleScript) stopAll(t *testing.T) {
	s.stopRecordings(t)
	for _, srv := range s.servers {
		if srv.cmd.ProcessState == nil {
			srv.stop(t)
		}
	}
}

// stop sends SIGINT (Ctrl+C) and requires exit 0.
func (srv *exampleServer) stop(t *testing.T) {
	t.Helper()
	if err := srv.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Errorf("example %q after Ctrl+C: %v\nstderr: %s", srv.name, err, srv.stderr.String())
	}
}

// exampleFixtures makes the files the examples read: scans of the demo
// tables and of "events" in my-project/prod (before and after rows are
// added to it), and a recording of the demo traffic read-hotspot.
func exampleFixtures(t *testing.T, btviz, host string, env []string) []string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(btviz, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("btviz %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("seed", "--scenario", "all")
	writeEvents(t, host, 0, 40)
	run("scan", "--project", "my-project", "--instance", "prod", "--table", "events", "--out", "events.btviz")
	run("scan", "--project", "my-project", "--instance", "prod", "--table", "events", "--out", "before.btviz")
	writeEvents(t, host, 40, 50)
	run("scan", "--project", "my-project", "--instance", "prod", "--table", "events", "--out", "after.btviz")
	run("scan", "--table", "social-celebrity", "--out", "celebrity.btviz")
	run("scan", "--table", "social-celebrity-salted", "--out", "salted.btviz")

	recording := filepath.Join(dir, "traffic.btviz")
	stop := startRecorder(t, host, recording)
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, stop.addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	if _, err := loadgen.Run(ctx, client, "read-hotspot", loadgen.Options{Rate: 200, Limit: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	client.Close()
	stop.ctrlC(t)

	// Three sidecars' recordings of one table, for `btviz open pod-a.btviz …`.
	data, err := os.ReadFile(recording)
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range []string{"pod-a.btviz", "pod-b.btviz", "pod-c.btviz"} {
		if err := os.WriteFile(filepath.Join(dir, pod), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var files []string
	for _, name := range []string{"events.btviz", "before.btviz", "after.btviz", "celebrity.btviz", "salted.btviz", "traffic.btviz", "pod-a.btviz", "pod-b.btviz", "pod-c.btviz"} {
		files = append(files, filepath.Join(dir, name))
	}
	return files
}

// exampleHotTablets starts a server answering ListClusters and
// ListHotTablets (a hot tablet of table events on cluster c1, every 15
// minutes of the last two hours) in front of the emulator at host, and
// returns its address.
func exampleHotTablets(t *testing.T, host string) string {
	t.Helper()
	now := time.Now().UTC()
	var tablets []hotadmin.Tablet
	for i := range 8 {
		at := now.Add(-time.Duration(15*(i+1)) * time.Minute)
		tablets = append(tablets, hotadmin.Tablet{Cluster: "c1", HotTablet: &adminpb.HotTablet{
			TableName: "projects/my-project/instances/prod/tables/events", StartKey: "user#", EndKey: "user#~",
			StartTime: timestamppb.New(at), EndTime: timestamppb.New(at.Add(time.Minute)), NodeCpuUsagePercent: 64,
		}})
	}
	return hotadmin.Start(t, host, hotadmin.Options{Clusters: []string{"c1"}, Tablets: tablets}).Addr
}

// writeEvents writes the rows of users [from, to) of table "events" in
// project my-project, instance prod (created on the first call): 50
// events a user, keyed user#<name>#<millis>.
func writeEvents(t *testing.T, host string, from, to int) {
	t.Helper()
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, host, "my-project", "prod")
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	if from == 0 {
		if err := admin.CreateTable(ctx, "events"); err != nil {
			t.Fatal(err)
		}
		if err := admin.CreateColumnFamily(ctx, "events", "e"); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	var muts []*bigtable.Mutation
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for u := from; u < to; u++ {
		for i := range 50 {
			at := start.Add(time.Duration(u*50+i) * time.Minute)
			keys = append(keys, fmt.Sprintf("user#member%03d#%d", u, at.UnixMilli()))
			m := bigtable.NewMutation()
			m.Set("e", "payload", bigtable.Time(at), bytes.Repeat([]byte("x"), 64))
			muts = append(muts, m)
		}
	}
	errs, err := client.Open("events").ApplyBulk(ctx, keys, muts)
	if err == nil {
		err = errors.Join(errs...)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// shellWords splits a command line as sh does for these examples: at
// spaces, with '…' and "…" quoting.
func shellWords(line string) []string {
	var out []string
	for _, token := range tokens(line) {
		if len(token) >= 2 && (token[0] == '\'' || token[0] == '"') && token[len(token)-1] == token[0] {
			token = token[1 : len(token)-1]
		}
		out = append(out, token)
	}
	return out
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

func portOf(t *testing.T, addr string) string {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func lastLine(s string) string {
	var last string
	for lines := bufio.NewScanner(strings.NewReader(s)); lines.Scan(); {
		if strings.TrimSpace(lines.Text()) != "" {
			last = lines.Text()
		}
	}
	return last
}
