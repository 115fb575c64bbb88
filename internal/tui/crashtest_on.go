//go:build btviz_crashtest

package tui

import tea "charm.land/bubbletea/v2"

// crashMessage is the panic value of the crash-test keys: a title change
// and a clipboard write, which must reach the terminal escaped.
const crashMessage = "crash test \x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\u202e"

// crashTest is built into a binary only with -tags btviz_crashtest, so
// that an end-to-end test sees how btviz ends on a bug in the
// interactive view: ctrl+x panics in Update, ctrl+y returns a batch of
// commands one of which panics on a goroutine of Bubble Tea's.
func crashTest(msg tea.Msg) tea.Cmd {
	key, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch key.String() {
	case "ctrl+x":
		panic(crashMessage)
	case "ctrl+y":
		return tea.Batch(func() tea.Msg { return nil }, func() tea.Msg { panic(crashMessage) })
	}
	return nil
}
