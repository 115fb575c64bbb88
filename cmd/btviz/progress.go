package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/view"
)

// progressBar draws a headless scan's [sampler.Progress] as one updating
// line ([view.ProgressLine]) on a terminal, and nothing when its output
// is not a terminal (a pipe, a file, CI). Its update method fits
// sampler.Options.Progress.
type progressBar struct {
	mu    sync.Mutex
	out   io.Writer
	width func() int
}

// defaultBarWidth is used when the terminal does not say its width.
const defaultBarWidth = 80

// newProgressBar returns a bar writing to f (normally os.Stderr), silent
// when f is not a terminal.
func newProgressBar(f *os.File) *progressBar {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return &progressBar{}
	}
	return &progressBar{out: f, width: func() int {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
		return defaultBarWidth
	}}
}

// update redraws the line; the final event's line stays, ended by a
// newline.
func (b *progressBar) update(p sampler.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.out == nil {
		return
	}
	// The last column stays free: writing into it makes some terminals
	// wrap, which breaks the carriage-return redraw.
	line := view.ProgressLine(p, b.width()-1)
	end := ""
	if p.Final {
		end = "\n"
	}
	fmt.Fprint(b.out, "\r"+line+ansi.EraseLineRight+end)
}
