package report

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// Format is an output format of `btviz report --format`.
type Format string

// The report formats.
const (
	FormatText     Format = "text"
	FormatJSON     Format = "json"
	FormatMarkdown Format = "markdown"
)

// Formats returns the report formats in the order help lists them.
func Formats() []Format { return []Format{FormatText, FormatJSON, FormatMarkdown} }

// ParseFormat reads a --format value ("md" is accepted for markdown); the
// error lists the valid names.
func ParseFormat(name string) (Format, error) {
	clean := strings.ToLower(strings.TrimSpace(name))
	if clean == "md" {
		clean = string(FormatMarkdown)
	}
	for _, f := range Formats() {
		if clean == string(f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown report format %q: use one of text, json, markdown", name)
}

// ParseFailOn reads a --fail-on value: info, warning or error.
func ParseFailOn(name string) (diagnose.Severity, error) {
	severity, err := diagnose.ParseSeverity(name)
	if err != nil {
		return 0, fmt.Errorf("--fail-on: %w", err)
	}
	return severity, nil
}

// Gate is the --fail-on rule: it reports whether any finding is at or
// above failOn, in which case `btviz report` exits with status 1.
func Gate(findings []diagnose.Finding, failOn diagnose.Severity) bool {
	return diagnose.AtLeast(findings, failOn)
}

// Input is what a report shows.
type Input struct {
	Snapshot *keyspace.Snapshot
	// Findings are [diagnose.Diagnose] of Snapshot (or [diagnose.Run]'s).
	Findings []diagnose.Finding
	// Datasets are [diagnose.Datasets] of Snapshot, as [diagnose.Run]
	// gives them beside Findings; nil has the report find them.
	Datasets []diagnose.Dataset
	// FromFile is true when the snapshot was read from a file rather than
	// scanned now: the report's source is then "snapshot".
	FromFile bool
	// WhatIfs are optional what-if results to show beside the findings.
	WhatIfs []*diagnose.WhatIf
	// Images are optional pictures (heatmaps exported with --images) to
	// link at the top of a Markdown section; other formats ignore them.
	Images map[Section][]Image
	// AllTopPrefixes lists every top-level prefix, not only the largest
	// [PrefixesPerDepth].
	AllTopPrefixes bool
}

// Section names a part of the Markdown report that can carry [Image]
// links.
type Section string

// The report sections.
const (
	SectionSummary     Section = "summary"
	SectionFindings    Section = "findings"
	SectionPrefixes    Section = "prefixes"
	SectionLargestRows Section = "largest-rows"
	SectionWhatIf      Section = "what-if"
	SectionTraffic     Section = "traffic"
	SectionHotTablets  Section = "hot-tablets"
)

// Image is one picture linked from a Markdown section: Path is relative
// to the Markdown file (or a URL), Alt its text.
type Image struct {
	Alt, Path string
}

// Render renders in in the given format.
func Render(format Format, in Input) ([]byte, error) {
	switch format {
	case FormatJSON:
		return JSON(in)
	case FormatMarkdown:
		return Markdown(in), nil
	case FormatText:
		return Text(in), nil
	}
	return nil, fmt.Errorf("unknown report format %q: use one of text, json, markdown", format)
}
