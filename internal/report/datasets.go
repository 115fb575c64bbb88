package report

import (
	"fmt"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// DatasetDoc is one dataset of the table ([diagnose.Datasets]): the keys
// of one top-level form, and its share of the table. Name and the keys
// are escaped by [keyspace.Printable].
type DatasetDoc struct {
	Name       string       `json:"name"`
	Prefix     keyspace.Key `json:"prefix"`
	Start      keyspace.Key `json:"start"`
	End        keyspace.Key `json:"end"`
	Rows       int64        `json:"rows"`
	RowShare   float64      `json:"row_share"`
	Bytes      int64        `json:"bytes"`
	ByteShare  float64      `json:"byte_share"`
	WriteShare float64      `json:"write_share"`
	// OpShare is its share of a recording's operations; absent without
	// one.
	OpShare float64 `json:"op_share,omitempty"`
}

// datasetDocs lists the datasets of snap: found, the ones Diagnose found,
// when given; else it finds them.
func datasetDocs(snap *keyspace.Snapshot, found []diagnose.Dataset) []DatasetDoc {
	if found == nil {
		found = diagnose.Datasets(snap)
	}
	docs := []DatasetDoc{}
	for _, ds := range found {
		docs = append(docs, DatasetDoc{
			Name: escape.Text(ds.Name), Prefix: ds.Prefix, Start: ds.Start, End: ds.End,
			Rows: units.Round(ds.Rows), RowShare: round4(ds.RowShare), Bytes: units.Round(ds.Bytes), ByteShare: round4(ds.ByteShare),
			WriteShare: round4(ds.WriteShare), OpShare: round4(ds.OpShare),
		})
	}
	return docs
}

// round4 rounds a share to 4 decimals.
func round4(share float64) float64 { return shareOf(share, 1) }

// datasetsText says how many datasets there are, for a heading.
func datasetsText(datasets []DatasetDoc) string {
	if len(datasets) == 1 {
		return "one dataset, the whole table"
	}
	return fmt.Sprintf("%d datasets, each diagnosed on its own", len(datasets))
}

// datasets writes the datasets of a scan (or a recording) in the text
// report.
func (t *text) datasets(doc Document) {
	if len(doc.Datasets) == 0 {
		return
	}
	t.line("")
	t.line("datasets: %s (name, range, rows, share of rows, bytes, of bytes, of writes%s):", datasetsText(doc.Datasets), opsColumn(doc))
	nameWidth, rangeWidth := 0, 0
	for _, ds := range doc.Datasets {
		nameWidth = max(nameWidth, len(ds.Name))
		rangeWidth = max(rangeWidth, len(rangeText(ds.Start, ds.End, printable)))
	}
	for _, ds := range doc.Datasets {
		line := fmt.Sprintf("  %-*s %-*s %10s %5s %10s %5s %5s", nameWidth, ds.Name, rangeWidth, rangeText(ds.Start, ds.End, printable),
			units.Thousands(ds.Rows), units.Percent(ds.RowShare), units.Bytes(float64(ds.Bytes)), units.Percent(ds.ByteShare), units.Percent(ds.WriteShare))
		if doc.Traffic != nil {
			line += fmt.Sprintf(" %5s", units.Percent(ds.OpShare))
		}
		t.line("%s", line)
	}
}

// opsColumn names the operations column when there is a recording.
func opsColumn(doc Document) string {
	if doc.Traffic != nil {
		return ", of operations"
	}
	return ""
}

// datasets writes the datasets in the Markdown report.
func (md *markdown) datasets(doc Document) {
	if len(doc.Datasets) == 0 {
		return
	}
	md.line("## Datasets")
	md.line("")
	md.line(mdText(datasetsText(doc.Datasets)) + ":")
	md.line("")
	header := []string{"Dataset", "Range", "Rows", "Share of rows", "Bytes", "Share of bytes", "Share of writes"}
	if doc.Traffic != nil {
		header = append(header, "Share of operations")
	}
	var rows [][]string
	for _, ds := range doc.Datasets {
		row := []string{mdText(ds.Name), rangeText(ds.Start, ds.End, mdKey), units.Thousands(ds.Rows), units.Percent(ds.RowShare),
			units.Bytes(float64(ds.Bytes)), units.Percent(ds.ByteShare), units.Percent(ds.WriteShare)}
		if doc.Traffic != nil {
			row = append(row, units.Percent(ds.OpShare))
		}
		rows = append(rows, row)
	}
	md.table(header, rows)
}
