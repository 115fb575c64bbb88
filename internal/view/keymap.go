package view

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding the TUI's screens and panes share. Match
// keys with key.Matches against these bindings, never against raw
// strings. The key that opens a pane is the pane's own (its open method,
// in its file).
//
// `l` toggles the log/linear scale (as Key Visualizer's users expect from
// btviz's key list); moving right is → only, and `h` moves left.
type KeyMap struct {
	Up, Down, Left, Right   key.Binding
	PageUp, PageDown        key.Binding
	Top, Bottom             key.Binding
	Drill, Back             key.Binding
	Search                  key.Binding
	Metric, Bucketing       key.Binding
	Brighter, Dimmer, Scale key.Binding
	Focus, FocusBack        key.Binding
	Rescan, Stop, Tables    key.Binding
	Screenshot, Help, Quit  key.Binding
	Copy, LabelTimes        key.Binding
	Accept, Cancel          key.Binding
	OpenTable, ForceQuit    key.Binding
}

// DefaultKeyMap returns btviz's key bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return KeyMap{
		Up:         b([]string{"up", "k"}, "↑/k", "up"),
		Down:       b([]string{"down", "j"}, "↓/j", "down"),
		Left:       b([]string{"left", "h"}, "←/h", "earlier"),
		Right:      b([]string{"right"}, "→", "later"),
		PageUp:     b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:   b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:        b([]string{"home", "g"}, "g/home", "first"),
		Bottom:     b([]string{"end", "G"}, "G/end", "last"),
		Drill:      b([]string{"enter"}, "enter", "drill in"),
		Back:       b([]string{"backspace", "esc"}, "esc", "back"),
		Search:     b([]string{"/"}, "/", "find prefix"),
		Metric:     b([]string{"m"}, "m", "metric"),
		Bucketing:  b([]string{"b"}, "b", "bucketing"),
		Brighter:   b([]string{"+", "="}, "+", "brighter"),
		Dimmer:     b([]string{"-"}, "-", "dimmer"),
		Scale:      b([]string{"l"}, "l", "log/linear"),
		Focus:      b([]string{"tab"}, "tab", "next pane"),
		FocusBack:  b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Rescan:     b([]string{"r"}, "r", "rescan"),
		Stop:       b([]string{"x"}, "x", "stop scan"),
		Tables:     b([]string{"T"}, "T", "tables"),
		Screenshot: b([]string{"s"}, "s", "screenshot"),
		Copy:       b([]string{"y"}, "y", "copy key"),
		LabelTimes: b([]string{"t"}, "t", "times in labels"),
		Help:       b([]string{"?"}, "?", "help"),
		Quit:       b([]string{"q", "ctrl+c"}, "q", "quit"),
		ForceQuit:  b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Accept:     b([]string{"enter"}, "enter", "go"),
		Cancel:     b([]string{"esc"}, "esc", "cancel"),
		OpenTable:  b([]string{"enter"}, "enter", "open table"),
	}
}

// relabel returns a copy of b whose help says desc: the same key doing
// what a pane makes of it.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
