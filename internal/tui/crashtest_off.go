//go:build !btviz_crashtest

package tui

import tea "charm.land/bubbletea/v2"

// crashTest does nothing in a release build; see crashtest_on.go.
func crashTest(tea.Msg) tea.Cmd { return nil }
