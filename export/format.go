package export

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an export file format, named by its file extension.
type Format string

// The export formats.
const (
	// FormatPNG is a raster screenshot.
	FormatPNG Format = "png"
	// FormatSVG is a vector screenshot whose text is searchable.
	FormatSVG Format = "svg"
	// FormatText is the frame as plain text, drawn for a terminal without
	// colour (heat as the shades " ░▒▓█").
	FormatText Format = "txt"
	// FormatANSI is the frame as text with colour escapes (SGR only), to
	// print with cat in a terminal.
	FormatANSI Format = "ansi"
)

// Formats returns every export format, in the order help lists them.
func Formats() []Format { return []Format{FormatPNG, FormatSVG, FormatText, FormatANSI} }

// FormatOf returns the format a file name's extension names. Its error
// lists the supported extensions.
func FormatOf(path string) (Format, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range Formats() {
		if ext == string(f) {
			return f, nil
		}
	}
	if ext == "" {
		return "", fmt.Errorf("output file %q has no extension to tell the format; end it in %s", path, extensionList(Formats()))
	}
	return "", fmt.Errorf("output file %q: unsupported format %q; end the file name in %s", path, "."+ext, extensionList(Formats()))
}

// isImage reports whether the format is a picture (PNG or SVG).
func (f Format) isImage() bool { return f == FormatPNG || f == FormatSVG }

// extensionList writes formats as ".png, .svg, .txt or .ansi".
func extensionList(formats []Format) string {
	parts := make([]string, len(formats))
	for i, f := range formats {
		parts[i] = "." + string(f)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
