package view

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// liveLine is the status line while a recording runs: where clients
// connect, what was recorded, and whether the upstream answers.
func (f *Frame) liveLine(width int) string {
	st := &f.Styles
	s := f.Live
	text := fmt.Sprintf("recording %s · %s calls", units.Duration(s.Elapsed.Round(time.Second)), units.Count(float64(s.Calls)))
	if s.Workload != "" {
		text += " · demo traffic " + s.Workload
	}
	if s.Listen != "" {
		text += " · clients: BIGTABLE_EMULATOR_HOST=" + s.Listen
	}
	if s.UpstreamErr != nil {
		return " " + st.Error.Render("✗ ") + st.Text.Render(Cut(escape.Text("upstream down ("+s.UpstreamErr.Error()+"); clients get Unavailable, recording goes on · "+text), width-4))
	}
	return " " + st.Good.Render("● ") + st.Muted.Render(Cut(escape.Text(text), width-4))
}
