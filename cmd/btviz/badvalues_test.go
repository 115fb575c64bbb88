package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// goInternals are what a Go error leaks when it reaches a user unworded:
// strconv's and time's parse errors, fmt's verb errors, type names.
var goInternals = regexp.MustCompile(`strconv\.|%!|invalid syntax|\bfloat64\b|\bint64\b|\bint32\b|\buint\b|time\.Duration|\bpflag\b|\bcobra\b|\*[a-z]+\.[A-Z]|<nil>|\bnil\b|0x[0-9a-f]{6,}|missing unit in duration|value out of range`)

// freeText are flags whose every value is valid as typed (a name, an
// address, a path to write): nothing to refuse until it is used, which
// other tests cover (a missing table, an unreachable emulator).
var freeText = map[string]string{
	"project":       "any project name",
	"instance":      "any instance name",
	"app-profile":   "any app profile name",
	"emulator-host": "an address, tried when used (TestMissingTableNamesWhatExists)",
	"upstream":      "an address, tried when used (TestRecordRefusesBadInput)",
	"cluster":       "a cluster name, checked against the instance's clusters when used (hottablets' TestFetchOneCluster)",
}

// badValue is a value a flag refuses, by the flag's name or else by its
// kind; ok is false for a flag no test value is known for.
func badValue(command string, flag *pflag.Flag, files badFiles) (value string, ok bool) {
	byName := map[string]string{
		"sample": "150%", "max-read": "lots", "prefix": `bad\x4`, "start": `\xZZ`, "end": `\xZZ`,
		"delimiters": "\t", "theme": "sepia", "format": "pdf", "fail-on": "fatal", "view": "pie",
		"metric": "temperature", "bucketing": "random", "scale": "cubic", "palette": "rainbow", "size": "big",
		"what-if": "salt(eight)", "images": files.file, "snapshot": files.missing, "table": "no-such-table",
		"screenshot-dir": files.missing, "traffic": "no-such-workload", "scenario": "no-such-scenario",
		"seed": "no-such-scenario", "listen": "no-port", "host": "no host", "duration": "-5s", "port": "70000",
		"concurrency": "-3", "max-rows": "-5", "hot-tablets": "forever", "last": "30d",
	}
	switch {
	case command == "export" && flag.Name == "out":
		return filepath.Join(files.dir, "x.pdf"), true
	case command == "diff" && flag.Name == "out":
		return filepath.Join(files.dir, "x.gif"), true
	case flag.Name == "out":
		return filepath.Join(files.missing, "x"), true
	}
	if v, ok := byName[flag.Name]; ok {
		return v, true
	}
	switch flag.Value.Type() {
	case "bool":
		return "maybe", true
	case "int", "int64":
		return "many", true
	case "duration":
		return "5", true
	case "float64":
		return "lots", true
	}
	return "", false
}

// badFiles are paths the bad values point at.
type badFiles struct {
	dir, file, missing, snapshot string
}

// baseArgs are what a command needs besides the flag under test to get
// as far as using it.
func baseArgs(command, flag string, files badFiles) []string {
	switch command {
	case "report", "export":
		args := []string{"--snapshot", files.snapshot}
		switch flag {
		case "snapshot":
			args = nil
		case "images":
			args = append(args, "--format", "markdown")
		case "table", "emulator":
			args = []string{"--emulator", "--table", "no-such-table"}
		}
		if command == "export" && flag != "out" {
			args = append(args, "--out", filepath.Join(files.dir, "x.png"))
		}
		return args
	case "scan":
		if flag == "out" {
			return []string{"--emulator", "--table", "two-datasets"} // a scan that works, to a file it cannot write
		}
		return []string{"--emulator", "--table", "no-such-table", "--out", filepath.Join(files.dir, "x.btviz")}
	case "diff":
		return []string{files.snapshot, files.snapshot}
	case "record":
		return []string{"--out", filepath.Join(files.dir, "r.btviz"), "--upstream", "localhost:1", "--listen", "127.0.0.1:0"}
	case "seed":
		return []string{"--emulator-host", "localhost:1"}
	case "open":
		return []string{files.snapshot}
	case "hot-tablets":
		return []string{"--emulator"} // the embedded emulator: refused for want of hot tablets, after the flags
	}
	return nil // the root: the interactive view refuses to start without a terminal after its flags
}

// TestEveryFlagRefusesBadValuesInPlainWords runs every flag of every
// command with a value it refuses: each exits 2 with a message that names
// the flag and shows no Go internals. A flag added later without a bad
// value here fails the test, so that its errors are looked at too.
func TestEveryFlagRefusesBadValuesInPlainWords(t *testing.T) {
	dir := t.TempDir()
	files := badFiles{dir: dir, file: filepath.Join(dir, "a-file"), missing: filepath.Join(dir, "missing", "nothing.btviz"), snapshot: smallSnapshot(t, 200)}
	if err := os.WriteFile(files.file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &app{getenv: func(string) string { return "" }}
	root := a.rootCommand()
	commands := append([]*cobra.Command{root}, root.Commands()...)
	tried := 0
	for _, cmd := range commands {
		name := cmd.Name()
		cmd.Flags().VisitAll(func(flag *pflag.Flag) {
			if flag.Name == "help" || flag.Name == "version" || flag.Hidden {
				return
			}
			if _, ok := freeText[flag.Name]; ok {
				return
			}
			if cmd == root && flag.Name == "table" {
				return // the interactive view needs a terminal before it looks for a table; report's --table is tried
			}
			value, ok := badValue(name, flag, files)
			if !ok {
				t.Errorf("btviz %s --%s: no bad value to try; add one to badValue, or the flag to freeText saying why any value is valid", name, flag.Name)
				return
			}
			var args []string
			if cmd != root {
				args = append(args, name)
			}
			args = append(args, baseArgs(name, flag.Name, files)...)
			args = append(args, "--"+flag.Name+"="+value)
			tried++
			r := runBtviz(t, map[string]string{"HOME": t.TempDir()}, args...)
			shown := "btviz " + strings.Join(args, " ")
			if r.code != exitUsage {
				t.Errorf("%s: exit %d, want 2\nstderr: %s", shown, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "--"+flag.Name) && !strings.Contains(r.stderr, value) {
				t.Errorf("%s: the message names neither --%s nor the value:\n%s", shown, flag.Name, r.stderr)
			}
			t.Logf("%s\n  %s", shown, strings.TrimSpace(r.stderr))
			if leak := goInternals.FindString(r.stderr); leak != "" {
				t.Errorf("%s: the message shows Go internals (%q):\n%s", shown, leak, r.stderr)
			}
		})
	}
	t.Logf("%d flags tried with bad values", tried)
}

// TestSampleTakesFractionsAndPercentages: --sample 5% and 0.05 are the
// same sample; 0, negatives and more than all the rows are refused with
// the valid range.
func TestSampleTakesFractionsAndPercentages(t *testing.T) {
	for text, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, ".5": 0.5, "100%": 1, "1": 1, " 12.5 % ": 0.125, "1e-9": 1e-9} {
		got, err := parseFraction(text)
		if err != nil || got < want*(1-1e-12) || got > want*(1+1e-12) {
			t.Errorf("--sample %q = %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"0", "0%", "-0.1", "-5%", "1.5", "150%", "5", "", "%", "abc", "NaN", "Inf", "0x10"} {
		if _, err := parseFraction(text); err == nil || !strings.Contains(err.Error(), sampleRange) {
			t.Errorf("--sample %q: error %v, want it refused with the valid range", text, err)
		}
	}
	r := runBtviz(t, nil, "report", "--table", "t", "--sample", "5")
	r.requireExit(t, exitUsage, `--sample "5"`, "more than all the rows", "5%")
}
