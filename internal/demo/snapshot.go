package demo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// ScannedRows returns the scenario's rows as a full scan of its table
// returns them: in key order, each row's cells by family, column and
// newest version first, each row of weight 1.
func (sc Scenario) ScannedRows() ([]keyspace.Row, error) {
	var rows []keyspace.Row
	err := sc.Generate(func(key string, cells ...keyspace.Cell) error {
		rows = append(rows, keyspace.Row{Key: key, Weight: 1, Cells: slices.Clone(cells)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	for _, row := range rows {
		slices.SortFunc(row.Cells, func(a, b keyspace.Cell) int {
			return cmp.Or(strings.Compare(a.Family, b.Family), strings.Compare(a.Qualifier, b.Qualifier), cmp.Compare(b.Timestamp, a.Timestamp))
		})
	}
	return rows, nil
}

// Snapshot builds the snapshot a complete full scan of the scenario's
// table would give, in-process: its [Scenario.ScannedRows] through a
// [keyspace.Builder]. The table is on an emulator (project local,
// instance btviz, as `btviz seed` puts it) unless the scenario has
// Tablets, which make it a Cloud Bigtable table. A test that needs a
// scenario's snapshot more than once should build it once: the largest
// take a few tenths of a second.
func (sc Scenario) Snapshot() (*keyspace.Snapshot, error) {
	rows, err := sc.ScannedRows()
	if err != nil {
		return nil, fmt.Errorf("snapshot of scenario %q: %w", sc.Name, err)
	}
	return sc.SnapshotOf(rows), nil
}

// SnapshotOf builds the snapshot of a complete full scan that read rows,
// in key order, from the scenario's table ([Scenario.Snapshot] of rows
// the caller already has).
func (sc Scenario) SnapshotOf(rows []keyspace.Row) *keyspace.Snapshot {
	source := keyspace.SourceEmulator
	if len(sc.Tablets) > 0 {
		source = keyspace.SourceBigtable
	}
	meta := &keyspace.Snapshot{
		Source:   source,
		Project:  "local",
		Instance: "btviz",
		Table:    sc.Name,
		Families: slices.Clone(sc.Families),
		Ranges:   slices.Clone(sc.Tablets),
		Scan: keyspace.ScanInfo{
			Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true,
			Started: DemoNow().Add(time.Hour), Duration: 1500 * time.Millisecond,
		},
		RangesAreTablets: source == keyspace.SourceBigtable,
	}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: sc.Delimiters, Seed: 1})
	for i := range rows {
		b.Add(&rows[i])
	}
	for i := range sc.Tablets {
		b.MarkRange(i, false)
	}
	snap := b.Snapshot()
	snap.Scan.RowsEstimated = snap.Scan.RowsRead
	snap.Scan.BytesEstimated = int64(snap.Totals().Bytes)
	return snap
}
