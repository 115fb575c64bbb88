package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// copyKey copies, escaped, the selected row's key (in the largest-rows
// view) or the selected bucket's start key to the clipboard through the
// terminal (OSC 52), and says what it copied.
func (m *Model) copyKey() tea.Cmd {
	f := m.frame()
	var k keyspace.Key
	what := "start key of bucket"
	switch {
	case f.State.Main == view.PaneRows:
		row, ok := f.SelectedRow()
		if !ok {
			m.setMessage("no row to copy: the largest-rows list is empty", false)
			return nil
		}
		k, what = row.Key, "row key"
	case m.matrix != nil && len(m.matrix.Buckets) > 0:
		i := view.ClampIndex(f.State.Selected, len(m.matrix.Buckets))
		b := &m.matrix.Buckets[i]
		k, what = b.Start, fmt.Sprintf("start key of bucket %d", i+1)
		if k == "" {
			k, what = b.LabelKey, fmt.Sprintf("first key of bucket %d (it starts at the table's start)", i+1)
		}
	default:
		m.setMessage("nothing to copy yet", false)
		return nil
	}
	text := escape.Key(string(k))
	// Not "✓ copied": btviz hands the key to the terminal (OSC 52) and
	// cannot know whether the terminal passes it on to the clipboard.
	// What may keep it from arriving comes first: a narrow status line
	// cuts the key, not the caveat.
	m.message = view.StatusMessage{Text: "sent the " + what + " to the clipboard; " + clipboardCaveat(m.cfg.Environ) +
		" · " + view.KeyText(k, copiedKeyWidth) + " (escaped as \\xNN)"}
	return tea.SetClipboard(text)
}

// clipboardCaveat says whether the copy reaches the clipboard, as far as
// the environment tells: btviz asks the terminal with OSC 52, which tmux
// passes on only with set-clipboard on, GNU screen and Apple's Terminal
// not at all, and other terminals as their settings allow.
func clipboardCaveat(environ []string) string {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	switch {
	case env["TMUX"] != "":
		return "inside tmux it reaches the clipboard only with `set -g set-clipboard on` in ~/.tmux.conf"
	case env["STY"] != "":
		return "GNU screen does not pass it on (OSC 52): copy the key from here"
	case env["TERM_PROGRAM"] == "Apple_Terminal":
		return "Terminal.app does not pass it on (OSC 52): copy the key from here"
	}
	return "it reaches the clipboard if your terminal allows OSC 52"
}

// copiedKeyWidth is the most cells of a copied key the status line
// repeats.
const copiedKeyWidth = 60

// handleMotion shows the key range of the heatmap row under the pointer
// in the status line, and clears it when the pointer leaves the heatmap.
// A message btviz put there for another reason stays.
func (m *Model) handleMotion(mouse tea.Mouse) {
	if m.message.Text != "" && !m.message.Hover {
		return
	}
	m.message = view.StatusMessage{}
	if m.pickerOpen || m.sh.Layout.TooSmall || m.matrix == nil || m.current() == nil {
		return
	}
	f := m.frame()
	if !view.ShowsBuckets(f.State.Main) || f.State.Main != view.PaneHeatmap {
		return
	}
	hit, ok := f.HitHeat(mouse.X, mouse.Y)
	if !ok || hit.Bucket < 0 || hit.Bucket >= len(m.matrix.Buckets) {
		return
	}
	b := &m.matrix.Buckets[hit.Bucket]
	m.message = view.StatusMessage{Text: fmt.Sprintf("bucket %d of %d: %s", hit.Bucket+1, len(m.matrix.Buckets), view.RangeText(b.Start, b.End)), Hover: true}
}
