package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"
)

// printError writes a command's error to stderr as "btviz: message",
// exactly as the error says it: fang's default handler capitalises the
// first letter, which mangles flags and paths, and wraps lines mid-word.
// On a terminal the prefix is red.
func printError(w io.Writer, _ fang.Styles, err error) {
	if errors.Is(err, errFindingsGate) {
		return // the report says it all; the exit code is the message
	}
	prefix := "btviz:"
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		prefix = lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true).Render(prefix)
	}
	fmt.Fprintf(w, "%s %s\n", prefix, err)
	var coded *exitError
	if errors.As(err, &coded) && coded.help {
		fmt.Fprintln(w, "Run `btviz --help` or `btviz COMMAND --help` for usage.")
	}
}
