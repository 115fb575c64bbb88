package keyspace

import (
	"cmp"
	"slices"
)

// Cell is one cell as the sampler observed it: where it is, when it was
// written and how large its value is. The value itself is never kept.
type Cell struct {
	Family     string
	Qualifier  string
	Timestamp  int64 // microseconds since the epoch
	ValueBytes int64
}

// Row is one row as the sampler observed it, the unit a [Builder] takes.
// Weight is how many rows of the table it stands for: 1 in a full scan,
// 1/fraction in a sampled one. Cells must be grouped by family and column,
// as ReadRows returns them.
type Row struct {
	Key    string
	Weight float64
	Cells  []Cell
	// keyBytes is the length of the key before the builder cut it to
	// [KeptKeyBytes] (0: Key is whole).
	keyBytes int
}

// cellOverheadBytes is what a cell costs beyond its family, qualifier and
// value in btviz's logical size: its 8-byte timestamp.
const cellOverheadBytes = 8

// maxColumnDetail bounds the columns [RowStat] keeps for a large row.
const maxColumnDetail = 12

// RowStat describes one row of a top-K list (largest rows, most versioned
// rows): enough for a reviewer to find and judge it.
type RowStat struct {
	Key          Key   `json:"key"`
	Bytes        int64 `json:"bytes"`
	Cells        int64 `json:"cells"`
	Columns      int64 `json:"columns"`
	Families     int   `json:"families"`
	MaxVersions  int64 `json:"max_versions"`
	MaxCellBytes int64 `json:"max_cell_bytes"`
	FirstWrite   int64 `json:"first_write"`
	LastWrite    int64 `json:"last_write"`
	// TopColumns lists the row's largest columns (by bytes), at most a dozen.
	TopColumns []ColumnStat `json:"top_columns,omitempty"`
}

// ColumnStat summarises one column of a row: its versions and bytes.
type ColumnStat struct {
	Family    string `json:"family"`
	Qualifier Key    `json:"qualifier"`
	Versions  int64  `json:"versions"`
	Bytes     int64  `json:"bytes"`
	MaxBytes  int64  `json:"max_bytes"`
}

// SampledRow is one row of the snapshot's uniform reservoir sample, kept
// for key-pattern analysis and what-if re-keying. Weight is how many table
// rows it stands for. Columns and MaxVersions give the row's shape (how
// its cells split into columns and versions) so that a re-keyed row can be
// rebuilt faithfully; they are 0 in files written before they existed.
type SampledRow struct {
	Key         Key     `json:"key"`
	Weight      float64 `json:"weight"`
	Bytes       int64   `json:"bytes"`
	Cells       int64   `json:"cells"`
	Columns     int64   `json:"columns,omitempty"`
	MaxVersions int64   `json:"max_versions,omitempty"`
	FirstWrite  int64   `json:"first_write"`
	LastWrite   int64   `json:"last_write"`
}

// rowSummary is the per-row digest the builder computes once and folds
// into every node on the row's path.
type rowSummary struct {
	key string
	// keyBytes is the key's length, before any cut to [KeptKeyBytes].
	keyBytes     int64
	cells        int64
	columns      int64
	bytes        int64
	valueBytes   int64
	maxCellBytes int64
	maxVersions  int64
	firstWrite   int64
	lastWrite    int64
	families     []int // indexes into the snapshot's family list
	columnStats  []ColumnStat
}

// summarize digests row; familyIndex maps a family name to its index.
func summarize(row *Row, familyIndex func(string) int, summary *rowSummary) {
	keyBytes := len(row.Key)
	if row.keyBytes > 0 {
		keyBytes = row.keyBytes
	}
	*summary = rowSummary{key: row.Key, keyBytes: int64(keyBytes), bytes: int64(keyBytes), families: summary.families[:0], columnStats: summary.columnStats[:0]}
	var column *ColumnStat
	for i := range row.Cells {
		cell := &row.Cells[i]
		qualifier := cutKey(cell.Qualifier)
		if column == nil || column.Family != cell.Family || string(column.Qualifier) != qualifier {
			if column == nil || column.Family != cell.Family {
				if family := familyIndex(cell.Family); !slices.Contains(summary.families, family) {
					summary.families = append(summary.families, family)
				}
			}
			summary.columnStats = append(summary.columnStats, ColumnStat{Family: cell.Family, Qualifier: Key(qualifier)})
			column = &summary.columnStats[len(summary.columnStats)-1]
		}
		size := int64(len(cell.Family)+len(cell.Qualifier)+cellOverheadBytes) + cell.ValueBytes
		column.Versions++
		column.Bytes += size
		column.MaxBytes = max(column.MaxBytes, cell.ValueBytes)
		summary.bytes += size
		summary.valueBytes += cell.ValueBytes
		summary.maxCellBytes = max(summary.maxCellBytes, cell.ValueBytes)
		if summary.cells == 0 || cell.Timestamp < summary.firstWrite {
			summary.firstWrite = cell.Timestamp
		}
		if summary.cells == 0 || cell.Timestamp > summary.lastWrite {
			summary.lastWrite = cell.Timestamp
		}
		summary.cells++
	}
	summary.columns = int64(len(summary.columnStats))
	for i := range summary.columnStats {
		summary.maxVersions = max(summary.maxVersions, summary.columnStats[i].Versions)
	}
}

// stat turns the summary into a [RowStat] with its column detail.
func (r *rowSummary) stat() RowStat {
	columns := slices.Clone(r.columnStats)
	slices.SortStableFunc(columns, func(a, b ColumnStat) int { return cmp.Compare(b.Bytes, a.Bytes) })
	if len(columns) > maxColumnDetail {
		columns = columns[:maxColumnDetail]
	}
	stat := r.brief()
	stat.TopColumns = columns
	return stat
}

// brief returns the summary as a [RowStat] without column detail: what a
// node's top list keeps, cheap enough to build for every new node.
func (r *rowSummary) brief() RowStat {
	return RowStat{
		Key: Key(r.key), Bytes: r.bytes, Cells: r.cells, Columns: r.columns,
		Families: len(r.families), MaxVersions: r.maxVersions, MaxCellBytes: r.maxCellBytes,
		FirstWrite: r.firstWrite, LastWrite: r.lastWrite,
	}
}

// topRows keeps the k largest rows by a measure, largest first.
type topRows struct {
	k       int
	measure func(*RowStat) int64
}

// qualifies reports whether a row of the given measure would enter list.
func (t topRows) qualifies(list []RowStat, value int64) bool {
	return len(list) < t.k || value > t.measure(&list[len(list)-1])
}

// insert adds row to list, keeping it sorted and at most k long.
func (t topRows) insert(list []RowStat, row RowStat) []RowStat {
	value := t.measure(&row)
	i, _ := slices.BinarySearchFunc(list, value, func(have RowStat, want int64) int {
		return cmp.Compare(want, t.measure(&have)) // descending
	})
	list = slices.Insert(list, i, row)
	if len(list) > t.k {
		list = list[:t.k]
	}
	return list
}

// merge folds the rows of other into list.
func (t topRows) merge(list, other []RowStat) []RowStat {
	for _, row := range other {
		if t.qualifies(list, t.measure(&row)) && !slices.ContainsFunc(list, func(have RowStat) bool { return have.Key == row.Key }) {
			list = t.insert(list, row)
		}
	}
	return list
}

func byBytes(r *RowStat) int64    { return r.Bytes }
func byVersions(r *RowStat) int64 { return r.MaxVersions }

func sortSample(rows []SampledRow) {
	slices.SortFunc(rows, func(a, b SampledRow) int { return cmp.Compare(a.Key, b.Key) })
}
