package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"github.com/btviz/btviz/internal/escape"
)

// printError writes a command's error to stderr as "btviz: message",
// exactly as the error says it (no capitalised first letter, which would
// mangle flags and paths, and no line cut mid-word).
// On a terminal the prefix is red. It is the last guard before the
// terminal: errors quote file names, table names, server messages and
// file contents, so every line goes through [escape.Text].
func printError(w io.Writer, err error) {
	if errors.Is(err, errFindingsGate) {
		return // the report says it all; the exit code is the message
	}
	prefix := "btviz:"
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		prefix = lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true).Render(prefix)
	}
	fmt.Fprintf(w, "%s %s\n", prefix, safeMessage(err.Error()))
	var coded *exitError
	if errors.As(err, &coded) && coded.help {
		fmt.Fprintln(w, "Run `btviz --help` or `btviz COMMAND --help` for usage.")
	}
}

// safeMessage escapes every line of an error message by btviz's one rule
// for text it did not write, keeping the line breaks between them.
func safeMessage(message string) string {
	lines := strings.Split(message, "\n")
	for i, line := range lines {
		lines[i] = escape.Text(line)
	}
	return strings.Join(lines, "\n")
}

// pathCause is what went wrong with a file, without the system call that
// found it ("stat", "open") and the path the message names already.
func pathCause(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	return err
}
