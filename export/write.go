package export

import (
	"errors"
	"fmt"
	"io"

	"github.com/btviz/btviz/artifact"
	"github.com/btviz/btviz/diagnose"
	"github.com/btviz/btviz/escape"
	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/keyspace"
)

// Write renders the TUI frame of snap and its findings that o describes
// ([Frame]) and writes it to path as a PNG, SVG, plain text or ANSI text
// file (o.Format, or the extension of path when o.Format is empty),
// atomically. It needs no terminal. It fails, leaving any existing file
// untouched, on a missing snapshot, a bad size, or a prefix that holds no
// rows (the error lists prefixes that do).
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
	return atomicfile.Write(path, func(w io.Writer) error { return Render(w, snap, findings, o) })
}

// Render writes the frame o describes to w in o.Format (see [Write]).
func Render(w io.Writer, snap *keyspace.Snapshot, findings []diagnose.Finding, o Options) error {
	o = o.withDefaults()
	if err := checkInput(snap, o); err != nil {
		return err
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
