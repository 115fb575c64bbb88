package view

import (
	"fmt"

	"charm.land/lipgloss/v2"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// planLines draws what the scan of the view said it would read before it
// read ([source.Preview]) and, under it, what it has read so far or read
// in all, for the details pane: a user waiting on a scan of a real
// instance sees its cost, and once it ends, planned against read. None
// before the scan says (or for a saved snapshot).
func (f *Frame) planLines(width int) []string {
	p := f.Preview
	if p == nil {
		return nil
	}
	st := &f.Styles
	value := max(width-detailLabelColumn-2, 8)
	lines := []string{" " + st.Strong.Render("This scan")}
	// addStyled wraps text under label; add writes it plain.
	addStyled := func(label, text string, style lipgloss.Style) {
		for _, line := range wrap(escape.Text(text), value) {
			lines = append(lines, f.styledField(label, line, style))
			label = ""
		}
	}
	add := func(label, text string) { addStyled(label, text, st.Text) }
	add("planned", p.Amount())
	if t := p.Time(); t != "" {
		add("time", t)
	}
	if f.Scan != nil && (f.Scan.Running && f.Scan.Progress.RangesTotal > 0 || f.Scan.Progress.Final) {
		g := f.Scan.Progress
		read := fmt.Sprintf("%s rows (%s) in %s", units.Thousands(g.RowsRead), units.Bytes(float64(g.BytesRead)), units.Duration(g.Elapsed))
		if g.Rescans > 0 {
			read += fmt.Sprintf(", %d re-read in full", g.Rescans)
		}
		if f.Scan.Running {
			read += " so far"
		}
		add("read", read)
	}
	add("how", p.Reason)
	if p.Note != "" {
		addStyled("note", p.Note, st.Warning)
	}
	return lines
}
