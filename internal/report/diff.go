package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// DiffInput is what `btviz diff A B` shows: two snapshots of a table (A
// before, B after) and their findings.
type DiffInput struct {
	A, B *keyspace.Snapshot
	// FindingsA and FindingsB are [diagnose.Diagnose] of A and of B.
	FindingsA, FindingsB []diagnose.Finding
	// LabelA and LabelB name the snapshots for the reader (their file
	// names, say); empty labels are left out.
	LabelA, LabelB string
	// AllowDifferentTables compares snapshots of two tables instead of
	// refusing (`btviz diff --force`); see [keyspace.DiffOptions].
	AllowDifferentTables bool
	// MaxDepth is the deepest prefix level compared (default
	// [keyspace.DefaultDiffDepth]).
	MaxDepth int
	// Images are pictures (the side-by-side heatmaps of `btviz diff
	// --out`) linked under the Markdown summary; other formats ignore them.
	Images []Image
}

// Limits of the diff's prefix lists.
const (
	// DiffPrefixesShown is how many of the largest share changes the text
	// and Markdown diffs list.
	DiffPrefixesShown = 15
	// DiffPrefixesListed is how many the JSON diff lists.
	DiffPrefixesListed = 100
)

// Diff renders the comparison of in.A with in.B in the given format:
// text for a terminal, JSON in the stable shape of [DiffDocument], or
// Markdown ready for a pull request. It fails on an unknown format and on
// snapshots [keyspace.Diff] refuses (missing, or of different tables
// without AllowDifferentTables; that error wraps
// [keyspace.ErrDifferentTables]).
func Diff(format Format, in DiffInput) ([]byte, error) {
	doc, err := BuildDiff(in)
	if err != nil {
		return nil, err
	}
	switch format {
	case FormatJSON:
		return diffJSON(doc)
	case FormatMarkdown:
		return diffMarkdown(doc, in.Images), nil
	case FormatText:
		return diffText(doc), nil
	}
	return nil, fmt.Errorf("unknown diff format %q: use one of text, json, markdown", format)
}

// diffJSON writes the document as indented JSON with a final newline.
func diffJSON(doc DiffDocument) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding the diff of table %s as JSON: %w", escape.Quote(doc.After.Table), err)
	}
	return buf.Bytes(), nil
}
