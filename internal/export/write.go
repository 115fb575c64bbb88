package export

import (
	"errors"
	"fmt"
	"io"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// Write draws the view of snap and its findings that o describes and
// writes it to path as a PNG, SVG, plain text or ANSI text file
// (o.Format, or the extension of path when o.Format is empty),
// atomically: a chart for a reader ([Render]), or with o.Frame the TUI's
// frame ([Frame]). It needs no terminal. It fails, writing nothing and
// leaving any existing file untouched, on a missing snapshot, a bad size,
// a prefix that holds no rows (the error lists prefixes that do), or a
// view the snapshot cannot draw (wrapping [ErrCannotDraw]: a traffic
// metric of a scan, say).
func Write(path string, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	if o.Format == "" {
		format, err := artifact.FormatOf(path)
		if err != nil {
			return err
		}
		o.Format = format
	}
	if err := checkInput(snap, o.withDefaults()); err != nil {
		return err
	}
	if err := checkDrawable(snap, findings, o.withDefaults()); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return Render(w, snap, findings, o) })
}

// Render writes the view o describes to w in o.Format (see [Write]): by
// default a chart drawn for a reader — the view's heatmap with its title
// and subtitle whole, a label on every key bucket a finding names, each
// finding's range marked with its number and share, the legend, and the
// view's list (the findings, the largest rows, the hot rows) under it;
// no key help and no selection. With o.Frame, the frame the TUI shows
// (and its screenshot key writes) for the same view and size.
func Render(w io.Writer, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	o = o.withDefaults()
	if err := checkInput(snap, o); err != nil {
		return err
	}
	if err := checkDrawable(snap, findings, o); err != nil {
		return err
	}
	if !o.Frame {
		if err := renderChart(w, snap, findings, o); err != nil {
			return fmt.Errorf("exporting the %s view of table %s as %s: %w", o.View, escape.Quote(snap.Table), o.Format, err)
		}
		return nil
	}
	if err := artifact.Render(w, o.frame(snap, findings), o.Format); err != nil {
		return fmt.Errorf("exporting the %s view of table %s as %s: %w", o.View, escape.Quote(snap.Table), o.Format, err)
	}
	return nil
}

// checkInput refuses what would export an empty or broken picture.
func checkInput(snap *keyspace.Snapshot, o Options) error {
	if snap == nil || snap.Root == nil {
		return errors.New("exporting: no snapshot, or one without a prefix tree; scan the table or load a snapshot first")
	}
	if err := o.check(); err != nil {
		return fmt.Errorf("exporting table %s: %w", escape.Quote(snap.Table), err)
	}
	return checkPrefix(snap, o.Prefix)
}
