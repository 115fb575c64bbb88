package sampler

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
)

// Bar widths: the bar is dropped when fewer than minBarCells would be
// left for it, and never grows past maxBarCells.
const (
	minBarCells = 8
	maxBarCells = 40
)

// eighths are the partial blocks that give the bar 1/8-cell resolution.
var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Line renders p as one line of at most width terminal cells, for
// example
//
//	sampling 5% ▕██████▌      ▏ 41%  12/30 ranges  1.2M rows  180k rows/s  ETA 12s
//
// and for the final event a summary of what was read. It contains no
// control characters and no key bytes.
func Line(p Progress, width int) string {
	label := "scanning"
	if p.Mode == keyspace.ModeSample {
		label = "sampling"
		if p.Fraction > 0 {
			label += " " + units.Percent(p.Fraction)
		}
		if p.Method == keyspace.MethodSpans {
			label += " of spans"
		}
	}
	stats := []string{
		fmt.Sprintf("%d/%d ranges", p.RangesDone, p.RangesTotal),
		units.Short(float64(p.RowsRead)) + " rows",
	}
	if p.Final {
		stats = append(stats, units.Bytes(float64(p.BytesRead)), "in "+humanDuration(p.Elapsed))
		if p.Rescans > 0 {
			stats = append(stats, fmt.Sprintf("%d re-read in full", p.Rescans))
		}
		return ansi.Truncate(strings.Replace(label, "ing", "ed", 1)+"  "+strings.Join(stats, "  "), width, "…")
	}
	stats = append(stats, units.Short(p.RowsPerSecond)+" rows/s")
	if p.ETA > 0 {
		stats = append(stats, "ETA "+humanDuration(p.ETA))
	}
	if p.Rescans > 0 {
		stats = append(stats, fmt.Sprintf("%d re-read", p.Rescans))
	}
	tail := fmt.Sprintf("%3.0f%%  %s", p.Done*100, strings.Join(stats, "  "))
	cells := min(maxBarCells, width-ansi.StringWidth(label)-ansi.StringWidth(tail)-4)
	if cells < minBarCells {
		return ansi.Truncate(label+" "+tail, width, "…")
	}
	return label + " ▕" + bar(p.Done, cells) + "▏ " + tail
}

// bar draws share (0 to 1) as a bar exactly cells wide.
func bar(share float64, cells int) string {
	share = min(max(share, 0), 1)
	eights := int(share * float64(cells*8))
	full, part := eights/8, eights%8
	var b strings.Builder
	b.WriteString(strings.Repeat("█", full))
	used := full
	if part > 0 && used < cells {
		b.WriteString(eighths[part])
		used++
	}
	b.WriteString(strings.Repeat(" ", cells-used))
	return b.String()
}

// Bar draws [Progress] events as one updating line on a terminal, and
// nothing when its output is not a terminal (a pipe, a file, CI). Its
// Update method fits [Options.Progress].
type Bar struct {
	mu    sync.Mutex
	out   io.Writer
	width func() int
}

// defaultBarWidth is used when the terminal does not say its width.
const defaultBarWidth = 80

// NewBar returns a [Bar] writing to f (normally os.Stderr), silent when f
// is not a terminal.
func NewBar(f *os.File) *Bar {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return &Bar{}
	}
	return &Bar{out: f, width: func() int {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
		return defaultBarWidth
	}}
}

// Update redraws the line; the final event's line stays, ended by a
// newline.
func (b *Bar) Update(p Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.out == nil {
		return
	}
	// The last column stays free: writing into it makes some terminals
	// wrap, which breaks the carriage-return redraw.
	line := Line(p, b.width()-1)
	end := ""
	if p.Final {
		end = "\n"
	}
	fmt.Fprint(b.out, "\r"+line+ansi.EraseLineRight+end)
}
