package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// SnapshotSource is the [source.Source] of `btviz open FILE`: it serves
// saved snapshots and cannot scan, so drill-downs stay within what the
// snapshot holds.
type SnapshotSource struct {
	where string
	snaps []*keyspace.Snapshot
}

// NewSnapshotSource serves snaps; where names their origin for titles
// (typically the file name).
func NewSnapshotSource(where string, snaps ...*keyspace.Snapshot) *SnapshotSource {
	return &SnapshotSource{where: where, snaps: snaps}
}

// Where names the snapshot file.
func (b *SnapshotSource) Where() string { return "snapshot " + b.where }

// Live is false: a saved snapshot cannot be re-read.
func (b *SnapshotSource) Live() bool { return false }

// Reads says what the files hold: scans, traffic recordings, or both.
func (b *SnapshotSource) Reads() string {
	scans, recordings := 0, 0
	for _, s := range b.snaps {
		if s.HasTraffic() {
			recordings++
		}
		if !s.TrafficOnly() {
			scans++
		}
	}
	switch {
	case scans == 0:
		return "btviz shows the traffic recorded on it (btviz record), read from the file"
	case recordings == 0:
		return "btviz shows the scan saved in the file"
	}
	return "btviz shows what the files hold of it: a saved scan, the traffic recorded on it, or both joined"
}

// ListTables lists the tables of the snapshots.
func (b *SnapshotSource) ListTables(context.Context) ([]source.TableInfo, error) {
	tables := make([]source.TableInfo, 0, len(b.snaps))
	for _, s := range b.snaps {
		tables = append(tables, source.TableInfo{Name: s.Table, Families: slices.Clone(s.Families), Description: "saved " + s.Summary()})
	}
	return tables, nil
}

// TableSizes returns each snapshot's estimated bytes.
func (b *SnapshotSource) TableSizes(_ context.Context, tables []string) (map[string]int64, error) {
	sizes := make(map[string]int64, len(tables))
	for _, s := range b.snaps {
		if slices.Contains(tables, s.Table) {
			sizes[s.Table] = s.Scan.BytesEstimated
		}
	}
	return sizes, nil
}

// Scan returns the saved snapshot of table when the whole of it is asked
// for, and [source.ErrNotLive] for anything that would need a new read.
func (b *SnapshotSource) Scan(_ context.Context, table string, within *source.Range, watch source.Watch) (*keyspace.Snapshot, error) {
	for _, s := range b.snaps {
		if s.Table != table {
			continue
		}
		if within != nil {
			return nil, fmt.Errorf("re-reading a key range of table %s: %w; run btviz against the instance to drill deeper", escape.Quote(table), source.ErrNotLive)
		}
		if watch.Progress != nil {
			watch.Progress(source.Progress{RangesDone: len(s.Ranges), RangesTotal: len(s.Ranges), RowsRead: s.Scan.RowsRead, Done: 1, Mode: s.Scan.Mode, Fraction: s.Scan.Fraction, Snapshot: s, Final: true})
		}
		return s, nil
	}
	return nil, fmt.Errorf("table %s is not in %s", escape.Quote(table), b.Where())
}

// Loads is nil: nothing loads in the background.
func (b *SnapshotSource) Loads() <-chan source.LoadProgress { return nil }
