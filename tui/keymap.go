package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the TUI. Match keys with key.Matches
// against these bindings, never against raw strings.
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
	Findings, Largest       key.Binding
	Rescan, Stop, Tables    key.Binding
	Screenshot, Help, Quit  key.Binding
	Accept, Cancel          key.Binding
	OpenTable, ForceQuit    key.Binding
	Prefixes                key.Binding
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
		Prefixes:   b([]string{"p"}, "p", "prefix table"),
		Findings:   b([]string{"f"}, "f", "findings"),
		Largest:    b([]string{"L"}, "L", "largest rows"),
		Rescan:     b([]string{"r"}, "r", "rescan"),
		Stop:       b([]string{"x"}, "x", "stop scan"),
		Tables:     b([]string{"T"}, "T", "tables"),
		Screenshot: b([]string{"s"}, "s", "screenshot"),
		Help:       b([]string{"?"}, "?", "help"),
		Quit:       b([]string{"q", "ctrl+c"}, "q", "quit"),
		ForceQuit:  b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Accept:     b([]string{"enter"}, "enter", "go"),
		Cancel:     b([]string{"esc"}, "esc", "cancel"),
		OpenTable:  b([]string{"enter"}, "enter", "open table"),
	}
}

// heatHelp is the key help of the heatmap and prefix-table panes.
type heatHelp struct{ k KeyMap }

// ShortHelp lists the keys a first-time user needs.
func (h heatHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Drill, h.k.Back, h.k.Search, h.k.Metric, h.k.Bucketing, h.k.Scale, h.k.Findings, h.k.Largest, h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists every key, by theme.
func (h heatHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Left, h.k.Right, h.k.Top, h.k.Bottom},
		{h.k.Drill, h.k.Back, h.k.Search, h.k.Focus, h.k.Prefixes},
		{h.k.Metric, h.k.Bucketing, h.k.Brighter, h.k.Dimmer, h.k.Scale},
		{h.k.Findings, h.k.Largest, h.k.Tables, h.k.Rescan, h.k.Stop},
		{h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}

// findingsHelp is the key help of the findings pane.
type findingsHelp struct{ k KeyMap }

// ShortHelp lists the findings pane's keys.
func (h findingsHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, relabel(h.k.Drill, "show range"), h.k.Focus, h.k.Back, h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists the findings pane's keys by theme.
func (h findingsHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom},
		{relabel(h.k.Drill, "show range"), h.k.Focus, h.k.Back},
		{h.k.Largest, h.k.Tables, h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}

// rowsHelp is the key help of the largest-rows view.
type rowsHelp struct{ k KeyMap }

// ShortHelp lists the largest-rows view's keys.
func (h rowsHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, relabel(h.k.Drill, "columns"), h.k.Back, h.k.Findings, h.k.Screenshot, h.k.Help, h.k.Quit}
}

// FullHelp lists the largest-rows view's keys by theme.
func (h rowsHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom},
		{relabel(h.k.Drill, "columns"), h.k.Back, h.k.Focus},
		{h.k.Findings, h.k.Tables, h.k.Screenshot, h.k.Help, h.k.Quit},
	}
}

// pickerHelp is the key help of the table picker.
type pickerHelp struct{ k KeyMap }

// ShortHelp lists the picker's keys.
func (h pickerHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, h.k.OpenTable, relabel(h.k.Search, "filter"), h.k.Back, h.k.Help, h.k.Quit}
}

// FullHelp lists the picker's keys by theme.
func (h pickerHelp) FullHelp() [][]key.Binding {
	return [][]key.Binding{{h.k.Up, h.k.Down, h.k.Top, h.k.Bottom}, {h.k.OpenTable, relabel(h.k.Search, "filter"), h.k.Back}, {h.k.Screenshot, h.k.Help, h.k.Quit}}
}

// relabel returns a copy of b whose help says desc: the same key doing
// what a pane makes of it.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// searchHelp is the key help of the search prompt.
type searchHelp struct{ k KeyMap }

// ShortHelp lists the prompt's keys.
func (h searchHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Accept, h.k.Cancel, h.k.ForceQuit}
}

// FullHelp lists the prompt's keys.
func (h searchHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
