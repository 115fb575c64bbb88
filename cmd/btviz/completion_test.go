package main

import (
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/view"
)

// completed is what `btviz __complete ARGS` (the call every shell's
// completion script makes) offers: the values without descriptions, and
// the directive.
type completed struct {
	values    []string
	directive cobra.ShellCompDirective
}

func complete(t *testing.T, env map[string]string, args ...string) completed {
	t.Helper()
	r := runBtviz(t, env, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	r.requireExit(t, exitOK)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	last := lines[len(lines)-1]
	code, err := strconv.Atoi(strings.TrimPrefix(last, ":"))
	if !strings.HasPrefix(last, ":") || err != nil {
		t.Fatalf("__complete %s: no directive line in %q", strings.Join(args, " "), r.stdout)
	}
	var c completed
	c.directive = cobra.ShellCompDirective(code)
	for _, line := range lines[:len(lines)-1] {
		value, _, _ := strings.Cut(line, "\t")
		c.values = append(c.values, value)
	}
	return c
}

func (c completed) has(values ...string) bool {
	for _, want := range values {
		found := false
		for _, got := range c.values {
			found = found || got == want
		}
		if !found {
			return false
		}
	}
	return true
}

// TestEveryEnumeratedFlagCompletesItsNames: on every command that has
// it, each flag that takes a name from a list completes every name of the
// list the parser reads, and no file names.
func TestEveryEnumeratedFlagCompletesItsNames(t *testing.T) {
	var workloads, scenarios []string
	for _, w := range loadgen.Workloads() {
		workloads = append(workloads, w.Name)
	}
	for _, sc := range demo.Scenarios() {
		scenarios = append(scenarios, sc.Name)
	}
	want := map[string][]string{
		"metric": names(heatmap.Metrics()), "view": names(view.Panes()), "bucketing": names(heatmap.Bucketings()),
		"scale": names(heatmap.ScaleKinds()), "palette": render.PaletteNames(), "theme": names(view.Themes()),
		"traffic": workloads, "format": names(report.Formats()), "fail-on": {"info", "warning", "error"},
		"scenario": append([]string{"all"}, scenarios...), "seed": append([]string{"all"}, scenarios...),
	}
	root := (&app{getenv: func(string) string { return "" }}).rootCommand()
	checked := map[string]int{}
	for _, cmd := range append([]*cobra.Command{root}, root.Commands()...) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			names, ok := want[f.Name]
			if !ok {
				return
			}
			var args []string
			if cmd != root {
				args = append(args, cmd.Name())
			}
			got := complete(t, nil, append(args, "--"+f.Name, "")...)
			checked[f.Name]++
			if !got.has(names...) {
				t.Errorf("btviz %s --%s completes %v, want every one of %v", cmd.Name(), f.Name, got.values, names)
			}
			if got.directive&cobra.ShellCompDirectiveNoFileComp == 0 {
				t.Errorf("btviz %s --%s also completes file names (directive %d)", cmd.Name(), f.Name, got.directive)
			}
		})
	}
	for name := range want {
		if checked[name] == 0 {
			t.Errorf("no command has --%s", name)
		}
	}
	// A list completes its last name and keeps those before it.
	got := complete(t, nil, "seed", "--scenario", "social-celebrity,")
	if !got.has("social-celebrity,two-datasets") || got.has("social-celebrity,social-celebrity") || got.has("social-celebrity,all") {
		t.Errorf("--scenario social-celebrity, completes %v", got.values)
	}
	if got.directive&cobra.ShellCompDirectiveNoSpace == 0 {
		t.Error("a name list's completion ends in a space, so the next name cannot follow the comma")
	}
}

// TestFreeTextFlagsCompleteNoFileNames: a flag that takes a name or a
// number completes nothing rather than the file names of the directory;
// files and directories complete by kind.
func TestFreeTextFlagsCompleteNoFileNames(t *testing.T) {
	for _, args := range [][]string{{"--project", ""}, {"report", "--instance", ""}, {"export", "--size", ""}, {"report", "--what-if", ""}, {"scan", "--sample", ""}} {
		if got := complete(t, nil, args...); got.directive&cobra.ShellCompDirectiveNoFileComp == 0 {
			t.Errorf("btviz %s completes file names", strings.Join(args, " "))
		}
	}
	for _, tc := range []struct {
		args []string
		want cobra.ShellCompDirective
		exts []string
	}{
		{[]string{"report", "--snapshot", ""}, cobra.ShellCompDirectiveFilterFileExt, []string{"btviz"}},
		{[]string{"open", ""}, cobra.ShellCompDirectiveFilterFileExt, []string{"btviz"}},
		{[]string{"export", "--out", ""}, cobra.ShellCompDirectiveFilterFileExt, []string{"png", "svg", "txt", "ansi"}},
		{[]string{"report", "--images", ""}, cobra.ShellCompDirectiveFilterDirs, nil},
	} {
		got := complete(t, nil, tc.args...)
		if got.directive != tc.want || !got.has(tc.exts...) {
			t.Errorf("btviz %s: %v with directive %d, want %v with %d", strings.Join(tc.args, " "), got.values, got.directive, tc.exts, tc.want)
		}
	}
}

// TestTableNamesCompleteFromTheTarget: --table completes the tables of
// the emulator the command line or the environment names, the demo
// tables with --emulator alone, and nothing (within the second it allows
// itself) when the target does not answer.
func TestTableNamesCompleteFromTheTarget(t *testing.T) {
	env := seededEmulator(t, "social-celebrity,two-datasets")
	if got := complete(t, env, "report", "--table", ""); !got.has("social-celebrity", "two-datasets") || len(got.values) != 2 {
		t.Errorf("report --table on the emulator at $%s completes %v, want its two tables", connect.EmulatorHostEnv, got.values)
	}
	if got := complete(t, nil, "export", "--emulator-host", env[connect.EmulatorHostEnv], "--table", ""); !got.has("social-celebrity", "two-datasets") {
		t.Errorf("export --emulator-host H --table completes %v", got.values)
	}
	if got := complete(t, map[string]string{"HOME": t.TempDir()}, "--emulator", "--table", ""); !got.has(demo.ScenarioNames()...) {
		t.Errorf("--emulator --table completes %v, want the demo tables", got.values)
	}
	snapshot := smallSnapshot(t, 50)
	if got := complete(t, nil, "report", "--snapshot", snapshot, "--table", ""); len(got.values) != 1 || got.values[0] != "events" {
		t.Errorf("report --snapshot FILE --table completes %v, want the file's table", got.values)
	}

	// A server that accepts connections and never answers.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			conn, err := silent.Accept()
			if err != nil {
				return
			}
			defer conn.Close()
		}
	}()
	started := time.Now()
	got := complete(t, map[string]string{connect.EmulatorHostEnv: silent.Addr().String(), "HOME": t.TempDir()}, "report", "--table", "")
	if len(got.values) != 0 {
		t.Errorf("a silent target completes %v", got.values)
	}
	// The look-up gives up after tableCompletionTimeout; the bound is
	// loose so that a loaded machine cannot fail it, and a hang (the
	// admin client's own 20 s) would.
	if elapsed := time.Since(started); elapsed > 10*tableCompletionTimeout {
		t.Errorf("completing against a silent target took %v", elapsed)
	}
}
