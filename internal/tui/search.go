package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/btviz/btviz/internal/keyspace"
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
func newSearchInput(st *Styles) textinput.Model {
	in := textinput.New()
	in.Prompt = searchPrompt
	in.Placeholder = searchPlaceholder
	in.CharLimit = 4096 // Bigtable's row-key limit, escaped or not
	in.SetStyles(st.Input)
	return in
}

// searchView renders the search prompt for the status line. Without
// colour the prompt's cursor styling is dropped, so a NoTTY frame stays
// free of escape sequences.
func (m *Model) searchView() string {
	view := m.search.View()
	if m.sh.profile <= colorprofile.NoTTY {
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

// searchHelp is the key help of the search prompt.
type searchHelp struct{ k KeyMap }

// ShortHelp lists the prompt's keys.
func (h searchHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Accept, h.k.Cancel, h.k.ForceQuit}
}

// FullHelp lists the prompt's keys.
func (h searchHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
