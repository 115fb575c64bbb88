package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/artifact"
)

// screenshotMsg reports the files the screenshot key wrote.
type screenshotMsg struct {
	paths []string
	err   error
}

// screenshotFormats are the files the screenshot key writes.
var screenshotFormats = []artifact.Format{artifact.FormatPNG, artifact.FormatSVG}

// screenshotCmd writes frame as PNG and SVG into dir, named after table
// and the time now returns: the same files `btviz export --frame` writes for the
// same view and size.
func screenshotCmd(dir, table string, frame artifact.Frame, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		stem := filepath.Join(dir, artifact.Stem(table, now()))
		var paths []string
		for _, format := range screenshotFormats {
			path := stem + "." + string(format)
			if err := artifact.Write(path, frame, format); err != nil {
				return screenshotMsg{paths: paths, err: screenshotFailed(err, dir)}
			}
			paths = append(paths, path)
		}
		return screenshotMsg{paths: paths}
	}
}

// screenshotFailed words a screenshot that could not be written for the
// status line: the cause and the advice first, the directory (which may
// be long) last, so that a cut line keeps what to do.
func screenshotFailed(err error, dir string) error {
	cause := err
	var errno syscall.Errno
	if pathErr := (*os.PathError)(nil); errors.As(err, &pathErr) {
		cause = pathErr.Err // the path is the directory's, named below
	} else if errors.As(err, &errno) {
		cause = errno // what went wrong, without the path (named below)
	}
	if dir == "" {
		dir = "the current directory"
	}
	return fmt.Errorf("screenshot not saved (%w); start btviz with --screenshot-dir DIR to save elsewhere than %s", cause, dir)
}

// screenshotText says where the screenshot went.
func screenshotText(msg screenshotMsg) (string, error) {
	if msg.err != nil {
		return "", msg.err
	}
	if len(msg.paths) == 0 {
		return "", errors.New("the screenshot wrote no file")
	}
	return "screenshot saved: " + strings.Join(msg.paths, ", "), nil
}
