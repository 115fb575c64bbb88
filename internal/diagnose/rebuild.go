package diagnose

import (
	"slices"
	"strconv"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// maxSynthesizedCells bounds the cells rebuilt for one sampled row: a
// row with more (a 100k-column row) is rebuilt with this many cells of
// proportionally larger values, so a what-if stays fast whatever the
// sample holds. Row-level findings do not depend on it: they come from the
// snapshot's largest and most-versioned rows, carried over re-keyed.
const maxSynthesizedCells = 200_000

// rekeyedRow is one sampled row with its new key.
type rekeyedRow struct {
	row    keyspace.SampledRow
	newKey string
}

// rebuild builds the snapshot the table would have with rows' new keys.
// Each sampled row becomes a row with its weight, its number of cells in
// its number of columns (the most versioned one holding MaxVersions
// versions), its bytes, and its cell times spread evenly between its first
// and last write. The largest and most-versioned rows are carried over
// from snap with their keys re-keyed, since a sample rarely holds them.
func rebuild(snap *keyspace.Snapshot, rows []rekeyedRow, rk rekeyer) *keyspace.Snapshot {
	delimiters := snap.Delimiters
	if strings.IndexByte(delimiters, rk.delimiter) < 0 {
		delimiters += string(rk.delimiter)
	}
	meta := &keyspace.Snapshot{
		Source: snap.Source, Project: snap.Project, Instance: snap.Instance, Table: snap.Table,
		AppProfile: snap.AppProfile, Families: slices.Clone(snap.Families), Scan: snap.Scan,
	}
	meta.Scan.RowsRead, meta.Scan.CellsRead = 0, 0
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: delimiters, SampleSize: max(len(rows), 1), Seed: 1})
	slices.SortFunc(rows, func(a, b rekeyedRow) int { return strings.Compare(a.newKey, b.newKey) })
	family := "cf"
	if len(snap.Families) > 0 {
		family = snap.Families[0]
	}
	for _, r := range rows {
		b.Add(synthesize(r, family))
	}
	after := b.Snapshot()
	after.Scan.RowsRead, after.Scan.CellsRead = snap.Scan.RowsRead, snap.Scan.CellsRead
	after.Largest = rekeyStats(snap.Largest, rk)
	after.MostVersioned = rekeyStats(snap.MostVersioned, rk)
	return after
}

// synthesize rebuilds a row of the shape the sample recorded.
func synthesize(r rekeyedRow, family string) *keyspace.Row {
	s := r.row
	cells := min(max(s.Cells, 0), maxSynthesizedCells)
	row := &keyspace.Row{Key: r.newKey, Weight: s.Weight}
	if cells == 0 {
		return row
	}
	// A sample from before rows kept their shape has no columns: take
	// every cell as its own column.
	columns, versions := cells, int64(1)
	if s.Columns > 0 {
		columns = min(s.Columns, cells)
		versions = min(max(s.MaxVersions, 1), cells-(columns-1))
	}
	// Column 0 holds the most versions; the other cells spread over the
	// remaining columns.
	perColumn := make([]int64, columns)
	perColumn[0] = versions
	for k, rest := int64(1), cells-versions; rest > 0; k++ {
		if columns == 1 {
			perColumn[0] += rest
			break
		}
		perColumn[1+(k-1)%(columns-1)]++
		rest--
	}
	qualifiers := make([]string, columns)
	var overhead int64
	for c := range qualifiers {
		qualifiers[c] = "c" + strconv.FormatInt(int64(c), 36)
		overhead += perColumn[c] * int64(len(family)+len(qualifiers[c])+8)
	}
	valueBytes := max(s.Bytes-int64(len(s.Key))-overhead, 0)
	row.Cells = make([]keyspace.Cell, 0, cells)
	for c, qualifier := range qualifiers {
		for range perColumn[c] {
			k := int64(len(row.Cells))
			at := s.FirstWrite
			if cells > 1 {
				at += (s.LastWrite - s.FirstWrite) * k / (cells - 1)
			}
			value := valueBytes / cells
			if k == 0 {
				value += valueBytes % cells
			}
			row.Cells = append(row.Cells, keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: at, ValueBytes: value})
		}
	}
	return row
}

// rekeyStats returns a copy of a top-row list with re-keyed keys.
func rekeyStats(rows []keyspace.RowStat, rk rekeyer) []keyspace.RowStat {
	out := slices.Clone(rows)
	for i := range out {
		key, _ := rk.apply(string(out[i].Key))
		out[i].Key = keyspace.Key(key)
		out[i].TopColumns = slices.Clone(out[i].TopColumns)
	}
	return out
}
