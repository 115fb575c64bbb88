package view

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/btviz/btviz/internal/render"
	"github.com/charmbracelet/colorprofile"
)

// Styles are every style the TUI draws with, by role, for one theme and
// colour profile. Build them with [NewStyles]; nothing else in the package
// makes a colour.
type Styles struct {
	// Dark is the theme the styles were built for.
	Dark bool
	// Profile is the colour profile colours were converted to.
	Profile colorprofile.Profile

	// Text is plain text; Muted secondary text; Strong emphasis.
	Text, Muted, Strong lipgloss.Style
	// AppName, Table and Note are the header's parts.
	AppName, Table, Note lipgloss.Style
	// Crumb and CrumbCurrent are breadcrumb segments.
	Crumb, CrumbCurrent lipgloss.Style
	// PaneTitle and PaneTitleFocused head each pane; Rule fills the rest
	// of a title line and draws separators.
	PaneTitle, PaneTitleFocused, Rule lipgloss.Style
	// Selected is a selected list line; Cursor the marker before it.
	Selected, Cursor lipgloss.Style
	// Error, Warning, Info and Good colour severities and states.
	Error, Warning, Info, Good lipgloss.Style
	// Key is a key name in hints.
	Key lipgloss.Style
	// Bar draws progress and meter bars: full blocks in the accent, the
	// empty rest on a dim background.
	Bar lipgloss.Style
	// Heat is the heatmap renderer's theme.
	Heat render.Theme
	// Help styles the bubbles help line.
	Help help.Styles
	// Prompt, Input and Placeholder style the status line's text input
	// (the prefix search, the picker's filter): its prompt, what is typed
	// and the placeholder; InputCursor colours its cursor, nil when the
	// profile has no colour (the program builds the input's styles from
	// them, as it owns the input).
	Prompt, Input, Placeholder lipgloss.Style
	InputCursor                color.Color
}

// palette is one theme's colours by role.
type palette struct {
	text, muted, strong, accent, accentText, selBg, selFg, rule color.Color
	errorC, warning, info, good                                 color.Color
	keyC, barEmpty                                              color.Color
}

func hex(s string) color.Color { return lipgloss.Color(s) }

func darkPalette() palette {
	return palette{
		text: hex("#e8e6e3"), muted: hex("#8a8894"), strong: hex("#ffffff"),
		accent: hex("#ffb86c"), accentText: hex("#16161d"),
		selBg: hex("#3b3a4a"), selFg: hex("#ffffff"), rule: hex("#4a4956"),
		errorC: hex("#ff6b6b"), warning: hex("#ffd166"), info: hex("#7aa2f7"), good: hex("#7bd88f"),
		keyC: hex("#c8c6c2"), barEmpty: hex("#3a3944"),
	}
}

func lightPalette() palette {
	return palette{
		text: hex("#1c1b22"), muted: hex("#6a6874"), strong: hex("#000000"),
		accent: hex("#b34000"), accentText: hex("#ffffff"),
		selBg: hex("#dcdbe4"), selFg: hex("#000000"), rule: hex("#b8b7c0"),
		errorC: hex("#c62828"), warning: hex("#9a5b00"), info: hex("#1e5aa8"), good: hex("#2e7d32"),
		keyC: hex("#33323a"), barEmpty: hex("#dcdbe4"),
	}
}

// NewStyles returns the styles for a dark (isDark) or light terminal
// background, with colours converted to what profile can show: none at
// all for [colorprofile.NoTTY] (no escape sequences), bold and reverse
// video only for [colorprofile.ASCII] (NO_COLOR).
func NewStyles(isDark bool, profile colorprofile.Profile) Styles {
	p := lightPalette()
	if isDark {
		p = darkPalette()
	}
	s := Styles{Dark: isDark, Profile: profile, Heat: render.NewTheme(isDark)}
	plain := lipgloss.NewStyle()
	switch {
	case profile <= colorprofile.NoTTY:
		s.setAll(plain)
		s.Help = help.Styles{ShortKey: plain, ShortDesc: plain, ShortSeparator: plain, Ellipsis: plain, FullKey: plain, FullDesc: plain, FullSeparator: plain}
		return s
	case profile == colorprofile.ASCII:
		s.setAll(plain)
		bold := plain.Bold(true)
		s.Strong, s.AppName, s.Table, s.CrumbCurrent, s.PaneTitleFocused, s.Error, s.Key = bold, bold, bold, bold, bold.Reverse(true), bold, bold
		s.Selected, s.Cursor = plain.Reverse(true), bold
		s.Help = help.Styles{ShortKey: bold, ShortDesc: plain, ShortSeparator: plain, Ellipsis: plain, FullKey: bold, FullDesc: plain, FullSeparator: plain}
		return s
	}
	fg := func(c color.Color) lipgloss.Style { return plain.Foreground(profile.Convert(c)) }
	s.Text, s.Muted, s.Strong = fg(p.text), fg(p.muted), fg(p.strong).Bold(true)
	s.AppName = fg(p.accent).Bold(true)
	s.Table = fg(p.strong).Bold(true)
	s.Note = fg(p.muted).Italic(true)
	s.Crumb, s.CrumbCurrent = fg(p.muted), fg(p.accent).Bold(true)
	s.PaneTitle = fg(p.text).Bold(true)
	s.PaneTitleFocused = plain.Foreground(profile.Convert(p.accentText)).Background(profile.Convert(p.accent)).Bold(true)
	s.Rule = fg(p.rule)
	s.Selected = plain.Foreground(profile.Convert(p.selFg)).Background(profile.Convert(p.selBg)).Bold(true)
	s.Cursor = fg(p.accent).Bold(true)
	s.Error, s.Warning, s.Info, s.Good = fg(p.errorC).Bold(true), fg(p.warning).Bold(true), fg(p.info), fg(p.good)
	s.Key = fg(p.keyC).Bold(true)
	s.Bar = plain.Foreground(profile.Convert(p.accent)).Background(profile.Convert(p.barEmpty))
	s.Help = help.Styles{
		ShortKey: fg(p.keyC).Bold(true), ShortDesc: fg(p.muted), ShortSeparator: fg(p.rule), Ellipsis: fg(p.rule),
		FullKey: fg(p.keyC).Bold(true), FullDesc: fg(p.muted), FullSeparator: fg(p.rule),
	}
	s.Prompt, s.Input, s.Placeholder = fg(p.accent).Bold(true), fg(p.text), fg(p.muted)
	s.InputCursor = profile.Convert(p.accent)
	return s
}

// setAll gives every text role the same style.
func (s *Styles) setAll(style lipgloss.Style) {
	for _, role := range []*lipgloss.Style{
		&s.Text, &s.Muted, &s.Strong, &s.AppName, &s.Table, &s.Note, &s.Crumb, &s.CrumbCurrent,
		&s.PaneTitle, &s.PaneTitleFocused, &s.Rule, &s.Selected, &s.Cursor,
		&s.Error, &s.Warning, &s.Info, &s.Good, &s.Key, &s.Bar, &s.Prompt, &s.Input, &s.Placeholder,
	} {
		*role = style
	}
}
