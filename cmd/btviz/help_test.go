package main

import (
	"strings"
	"testing"

	"github.com/btviz/btviz/artifact"
	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/heatmap"
	"github.com/btviz/btviz/report"
	"github.com/btviz/btviz/tui"
	"github.com/btviz/btviz/units"
)

// TestHelpListsEveryName: each command's help lists every name its flags
// take, from the lists the parsers read (a pane, a format or a severity
// added later appears in the help by itself).
func TestHelpListsEveryName(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    []string
	}{
		{"export", []string{tui.PaneNames(), artifact.ExtensionList(artifact.Formats()), units.OrList(tui.Themes()),
			units.OrList(heatmap.Metrics()), units.OrList(heatmap.Bucketings())}},
		{"report", []string{units.OrList(report.Formats()), diagnose.SeverityNames()}},
		{"diff", []string{units.OrList(report.Formats()), artifact.ExtensionList(artifact.ImageFormats())}},
		{"open", []string{units.OrList(tui.Themes())}},
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
	if !strings.Contains(r.stdout+r.stderr, units.OrList(tui.Themes())) {
		t.Errorf("btviz --help lacks the themes:\n%s", r.stdout)
	}
}
