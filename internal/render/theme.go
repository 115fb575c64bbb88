package render

import (
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Theme holds the colours of everything around the heat cells: labels,
// axes, legend, title and the selection, for a dark or a light
// background. The heat palette is the same in both: brightness means heat
// whatever the terminal, as in Key Visualizer, and the heat area is a
// block of its own colours that does not need to blend with the
// background. The zero value is the dark theme.
type Theme struct {
	Dark bool
	// Background is the image background (terminals keep their own).
	Background color.Color
	// Text is titles and values; Label key labels; Axis ticks, axis
	// labels and the legend's text; Muted secondary text.
	Text, Label, Axis, Muted color.Color
	// SelectedFg and SelectedBg mark the selected bucket's label.
	SelectedFg, SelectedBg color.Color
	// Accent marks the selected time column.
	Accent color.Color
}

// NewTheme returns the theme for a dark (isDark) or light background.
func NewTheme(isDark bool) Theme {
	if isDark {
		return Theme{
			Dark: true, Background: rgb(0x16, 0x16, 0x1d),
			Text: rgb(0xe8, 0xe6, 0xe3), Label: rgb(0xc8, 0xc6, 0xc2), Axis: rgb(0x9a, 0x98, 0xa0), Muted: rgb(0x6e, 0x6c, 0x76),
			SelectedFg: rgb(0x16, 0x16, 0x1d), SelectedBg: rgb(0xff, 0xb8, 0x6c), Accent: rgb(0xff, 0xb8, 0x6c),
		}
	}
	return Theme{
		Dark: false, Background: rgb(0xff, 0xff, 0xff),
		Text: rgb(0x1c, 0x1b, 0x22), Label: rgb(0x33, 0x32, 0x3a), Axis: rgb(0x5c, 0x5a, 0x66), Muted: rgb(0x8a, 0x88, 0x92),
		SelectedFg: rgb(0xff, 0xff, 0xff), SelectedBg: rgb(0xb3, 0x40, 0x00), Accent: rgb(0xb3, 0x40, 0x00),
	}
}

func (t Theme) orDefault() Theme {
	if t.Text == nil {
		return NewTheme(true)
	}
	return t
}

// textStyles are a theme's roles as lipgloss styles for one colour
// profile: colours converted to what the profile can show, none at all
// without colour (ASCII keeps reverse video for the selection; NoTTY has
// no escape sequences at all).
type textStyles struct {
	Title, Label, Axis, Legend, Selected, Accent lipgloss.Style
}

func (t Theme) textStyles(profile colorprofile.Profile) textStyles {
	t = t.orDefault()
	plain := lipgloss.NewStyle()
	switch {
	case profile <= colorprofile.NoTTY:
		return textStyles{Title: plain, Label: plain, Axis: plain, Legend: plain, Selected: plain, Accent: plain}
	case profile == colorprofile.ASCII:
		return textStyles{Title: plain.Bold(true), Label: plain, Axis: plain, Legend: plain, Selected: plain.Reverse(true), Accent: plain.Bold(true)}
	}
	fg := func(c color.Color) lipgloss.Style { return plain.Foreground(profile.Convert(c)) }
	return textStyles{
		Title:    fg(t.Text).Bold(true),
		Label:    fg(t.Label),
		Axis:     fg(t.Axis),
		Legend:   fg(t.Axis),
		Selected: plain.Foreground(profile.Convert(t.SelectedFg)).Background(profile.Convert(t.SelectedBg)).Bold(true),
		Accent:   fg(t.Accent).Bold(true),
	}
}
