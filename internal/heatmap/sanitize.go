package heatmap

import "github.com/btviz/btviz/internal/escape"

// sanitize makes caller-supplied text (titles, table names) safe to print
// by btviz's one rule ([escape.Text]). Keys never need it: they are
// escaped by keyspace.Printable.
func sanitize(s string) string { return escape.Text(s) }
