package tui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/screenshot"
)

// screenshotMsg reports the files the screenshot key wrote.
type screenshotMsg struct {
	paths []string
	err   error
}

// screenshotName returns the file name stem of a screenshot of table
// taken at t: btviz-<table>-<yyyymmdd-hhmmss>, with characters that do
// not belong in a file name replaced.
func screenshotName(table string, t time.Time) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, table)
	if clean == "" {
		clean = "tables"
	}
	return "btviz-" + clean + "-" + t.Format("20060102-150405")
}

// screenshotCmd writes frame, the exact string View rendered, as PNG and
// SVG files into dir, named after table and the time now returns.
func screenshotCmd(dir, table, frame string, width, height int, isDark bool, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		opts := screenshot.Options{Theme: screenshot.LightTheme(), Columns: width, Rows: height}
		if isDark {
			opts.Theme = screenshot.DarkTheme()
		}
		stem := filepath.Join(dir, screenshotName(table, now()))
		var paths []string
		for _, format := range []struct {
			ext   string
			write func(*bytes.Buffer) error
		}{
			{".png", func(b *bytes.Buffer) error { return screenshot.PNG(b, frame, opts) }},
			{".svg", func(b *bytes.Buffer) error { return screenshot.SVG(b, frame, opts) }},
		} {
			var buf bytes.Buffer
			if err := format.write(&buf); err != nil {
				return screenshotMsg{paths: paths, err: fmt.Errorf("drawing the screenshot as %s: %w", format.ext, err)}
			}
			path := stem + format.ext
			if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
				return screenshotMsg{paths: paths, err: fmt.Errorf("saving the screenshot: %w; start btviz with --screenshot-dir naming a writable directory", err)}
			}
			paths = append(paths, path)
		}
		return screenshotMsg{paths: paths}
	}
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
