package tui

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// The prompts of the status line's text input: the prefix search and
// the table picker's filter.
const (
	searchPrompt      = " find prefix: "
	searchPlaceholder = `e.g. user#42# (bytes as \xNN)`
	filterPrompt      = " filter tables: "
	filterPlaceholder = "part of a table name"
)

// newSearchInput returns the status line's text input in styles st.
func newSearchInput(st *view.Styles) textinput.Model {
	in := textinput.New()
	in.Prompt = searchPrompt
	in.Placeholder = searchPlaceholder
	in.CharLimit = 4096 // Bigtable's row-key limit, escaped or not
	in.SetStyles(inputStyles(st))
	return in
}

// searchView renders the search prompt for the status line. Without
// colour the prompt's cursor styling is dropped, so a NoTTY frame stays
// free of escape sequences.
func (m *Model) searchView() string {
	view := m.search.View()
	if m.sh.Profile <= colorprofile.NoTTY {
		view = ansi.Strip(view)
	}
	return view
}

// jumpTarget returns the view state that shows key in context: the
// prefix node of that exact prefix when it can be drilled into (when
// into is set), otherwise the deepest node above key whose buckets hold
// key, with key's bucket to be selected.
func jumpTarget(root *keyspace.Node, key string, into bool) (prefix keyspace.Key, selectKey string) {
	if root == nil {
		return "", key
	}
	if into {
		if path := root.Lookup(key); path != nil {
			if n := path[len(path)-1]; n.Kind == keyspace.KindPrefix && !n.IsLeaf() {
				return n.Prefix, ""
			}
		}
	}
	path := root.Find(key)
	for i := len(path) - 1; i > 0; i-- {
		n := path[i]
		if n.Kind == keyspace.KindPrefix && !n.IsLeaf() && string(n.Prefix) != key {
			return n.Prefix, key
		}
	}
	return "", key
}

// inputStyles are the text input's styles, from the view's: without colour
// (no cursor colour) plain, with colour the text input's defaults for the
// background with the view's prompt, text, placeholder and cursor.
func inputStyles(st *view.Styles) textinput.Styles {
	if st.InputCursor == nil {
		return plainInputStyles(st.Input)
	}
	in := textinput.DefaultStyles(st.Dark)
	in.Focused.Prompt, in.Focused.Text, in.Focused.Placeholder = st.Prompt, st.Input, st.Placeholder
	in.Cursor.Color = st.InputCursor
	in.Cursor.Blink = false
	return in
}

// plainInputStyles are search-prompt styles without colour.
func plainInputStyles(plain lipgloss.Style) textinput.Styles {
	var st textinput.Styles
	st.Focused = textinput.StyleState{Prompt: plain, Text: plain, Placeholder: plain, Suggestion: plain}
	st.Blurred = st.Focused
	st.Cursor.Blink = false
	return st
}
