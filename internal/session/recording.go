package session

import (
	"context"
	"slices"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// RecordingSource is the [source.Source] of the live view of a traffic
// recording: it lists the tables of the source it wraps (the instance the
// traffic goes to) and the tables the recording has seen, and scans
// through the wrapped source, so that each table's traffic is shown joined
// with what is stored. Without a wrapped source, or for a table it does
// not have, a table is its traffic alone.
type RecordingSource struct {
	rec     source.Recording
	storage source.Source
}

// NewRecordingSource serves the tables of rec, scanning them through
// storage when it is not nil.
func NewRecordingSource(rec source.Recording, storage source.Source) *RecordingSource {
	return &RecordingSource{rec: rec, storage: storage}
}

// Where names what the traffic goes to.
func (b *RecordingSource) Where() string {
	if b.storage == nil {
		return "traffic recording"
	}
	return b.storage.Where() + ", recording traffic"
}

// Live reports whether tables can be scanned.
func (b *RecordingSource) Live() bool { return b.storage != nil && b.storage.Live() }

// Reads says that a table shows the traffic as it is recorded, on what
// the wrapped source reads of it.
func (b *RecordingSource) Reads() string {
	if b.storage == nil || !b.storage.Live() {
		return "btviz shows the traffic the proxy records on it, live"
	}
	return "btviz shows the traffic the proxy records on it, live, joined with a scan (SampleRowKeys and parallel scans, read directly, not through the proxy)"
}

// ListTables lists the wrapped source's tables and the tables with
// traffic, in name order.
func (b *RecordingSource) ListTables(ctx context.Context) ([]source.TableInfo, error) {
	var tables []source.TableInfo
	if b.storage != nil {
		stored, err := b.storage.ListTables(ctx)
		if err != nil {
			return nil, err
		}
		tables = stored
	}
	for _, name := range b.rec.Tables() {
		i := slices.IndexFunc(tables, func(t source.TableInfo) bool { return t.Name == name })
		if i < 0 {
			tables = append(tables, source.TableInfo{Name: name, Description: "traffic only (not found upstream)"})
			continue
		}
		tables[i].Description = "traffic recorded · " + tables[i].Description
	}
	slices.SortFunc(tables, func(a, b source.TableInfo) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return tables, nil
}

// TableSizes asks the wrapped source for the sizes of tables it has.
func (b *RecordingSource) TableSizes(ctx context.Context, tables []string) (map[string]int64, error) {
	if b.storage == nil {
		return map[string]int64{}, nil
	}
	return b.storage.TableSizes(ctx, tables)
}

// Scan reads table through the wrapped source; a table only the traffic
// knows has nothing stored to read: it returns no snapshot and no error,
// and the view shows the table's traffic alone.
func (b *RecordingSource) Scan(ctx context.Context, table string, within *source.Range, watch source.Watch) (*keyspace.Snapshot, error) {
	if b.storage == nil {
		return nil, nil
	}
	stored, err := b.storage.ListTables(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(stored, func(t source.TableInfo) bool { return t.Name == table }) {
		return nil, nil
	}
	return b.storage.Scan(ctx, table, within, watch)
}

// Loads passes on the wrapped source's background loading.
func (b *RecordingSource) Loads() <-chan source.LoadProgress {
	if b.storage == nil {
		return nil
	}
	return b.storage.Loads()
}
