package view

import (
	"fmt"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/units"
)

// Theme picks the TUI's colours.
type Theme string

const (
	// ThemeAuto asks the terminal for its background colour and follows
	// it (dark until it answers).
	ThemeAuto Theme = "auto"
	// ThemeDark and ThemeLight fix the theme.
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// Themes returns every theme, in the order help texts list them.
func Themes() []Theme { return []Theme{ThemeAuto, ThemeDark, ThemeLight} }

// ParseTheme returns the theme named name ("" is [ThemeAuto]); the error
// lists the valid names.
func ParseTheme(name string) (Theme, error) {
	if name == "" {
		return ThemeAuto, nil
	}
	for _, t := range Themes() {
		if string(t) == name {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown theme %q: use %s", escape.Text(name), units.OrList(Themes()))
}
