package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/units"
	"github.com/btviz/btviz/internal/view"
)

// TestHelpListsEveryName: each command's help lists every name its flags
// take, from the lists the parsers read (a pane, a format or a severity
// added later appears in the help by itself).
func TestHelpListsEveryName(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    []string
	}{
		{"export", []string{view.PaneNames(), artifact.ExtensionList(artifact.Formats()), units.OrList(view.Themes()),
			units.OrList(heatmap.Metrics()), units.OrList(heatmap.Bucketings())}},
		{"report", []string{units.OrList(report.Formats()), diagnose.SeverityNames()}},
		{"diff", []string{units.OrList(report.Formats()), artifact.ExtensionList(artifact.ImageFormats())}},
		{"open", []string{units.OrList(view.Themes())}},
	} {
		r := runBtviz(t, nil, tc.command, "--help")
		r.requireExit(t, exitOK)
		help := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
		for _, want := range tc.want {
			if !strings.Contains(help, want) {
				t.Errorf("btviz %s --help lacks %q:\n%s", tc.command, want, r.stdout)
			}
		}
	}
	r := runBtviz(t, nil, "--help")
	r.requireExit(t, exitOK)
	if !strings.Contains(r.stdout+r.stderr, units.OrList(view.Themes())) {
		t.Errorf("btviz --help lacks the themes:\n%s", r.stdout)
	}
}

// commandPaths lists every command of the tree under root (the root
// first, as an empty path), with cobra's help and completion commands.
func commandPaths(root *cobra.Command) [][]string {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		out = append(out, path)
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				walk(sub, append(append([]string{}, path...), sub.Name()))
			}
		}
	}
	walk(root, nil)
	return out
}

// sourceWords are the words of everything a command's help writes: its
// texts, usage line, examples and flags.
func sourceWords(c *cobra.Command) []string {
	texts := []string{c.Long, c.UseLine(), c.Example}
	if c.Long == "" {
		texts = append(texts, c.Short)
	}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			texts = append(texts, f.Usage, "--"+f.Name)
		}
	})
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			texts = append(texts, sub.Name(), sub.Short)
		}
	}
	return strings.Fields(strings.Join(texts, " "))
}

// TestHelpFitsTheTerminal: at 80, 100 and 200 columns every command's
// help has no line wider than the terminal and no word cut in two (each
// word of its texts, flags and examples appears whole).
func TestHelpFitsTheTerminal(t *testing.T) {
	root := (&app{getenv: func(string) string { return "" }}).rootCommand()
	paths := commandPaths(root)
	if len(paths) < 10 {
		t.Fatalf("found %d commands: %v", len(paths), paths)
	}
	for _, path := range paths {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		words := sourceWords(cmd)
		for _, width := range []int{80, 100, 200} {
			shown := strings.TrimSpace("btviz " + strings.Join(path, " ") + " --help")
			r := runBtviz(t, map[string]string{"COLUMNS": strconv.Itoa(width)}, append(append([]string{}, path...), "--help")...)
			r.requireExit(t, exitOK)
			if strings.TrimSpace(r.stdout) == "" {
				t.Fatalf("%s printed no help", shown)
			}
			for i, line := range strings.Split(r.stdout, "\n") {
				if w := ansi.StringWidth(line); w > width {
					t.Errorf("%s at %d columns: line %d is %d cells wide:\n%s", shown, width, i+1, w, line)
				}
				if strings.HasSuffix(line, " ") {
					t.Errorf("%s at %d columns: line %d ends in spaces: %q", shown, width, i+1, line)
				}
			}
			written := map[string]bool{}
			for _, word := range strings.Fields(r.stdout) {
				written[word] = true
			}
			for _, word := range words {
				if !written[word] {
					t.Errorf("%s at %d columns: the word %q is not written whole", shown, width, word)
				}
			}
		}
	}
}
