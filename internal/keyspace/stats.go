package keyspace

// Stats aggregates the rows under a node or range. Counts are estimates:
// a row read in a sampled scan counts 1/fraction, a row read in full counts
// one, so every count is exact after a full scan. Sizes are logical bytes:
// key plus, per cell, family, qualifier, value and an 8-byte timestamp.
// Maxima are over the rows actually read.
type Stats struct {
	Rows       float64 `json:"rows"`
	Cells      float64 `json:"cells"`
	Bytes      float64 `json:"bytes"`
	ValueBytes float64 `json:"value_bytes"`
	KeyBytes   float64 `json:"key_bytes"`
	// Columns sums, over rows, the distinct columns (family:qualifier) each
	// row has; Cells/Columns is the mean number of versions per column.
	Columns float64 `json:"columns"`

	MaxRowBytes   int64 `json:"max_row_bytes"`
	MaxRowCells   int64 `json:"max_row_cells"`
	MaxRowColumns int64 `json:"max_row_columns"`
	MaxCellBytes  int64 `json:"max_cell_bytes"`
	MaxVersions   int64 `json:"max_versions"`
	MaxKeyBytes   int64 `json:"max_key_bytes"`

	// FirstKey and LastKey are the smallest and largest row keys read.
	FirstKey Key `json:"first_key"`
	LastKey  Key `json:"last_key"`
	// FirstWrite and LastWrite bound the cell timestamps (microseconds
	// since the epoch) read; they mean nothing when Cells is 0.
	FirstWrite int64 `json:"first_write"`
	LastWrite  int64 `json:"last_write"`
	// FamilyMask has bit i set when family [Snapshot.Families][i] was seen.
	FamilyMask []uint64 `json:"family_mask,omitempty"`
}

// Families returns how many distinct column families the rows use.
func (s *Stats) Families() int {
	n := 0
	for _, word := range s.FamilyMask {
		for ; word != 0; word &= word - 1 {
			n++
		}
	}
	return n
}

// HasFamily reports whether family index i was seen.
func (s *Stats) HasFamily(i int) bool {
	word := i / 64
	return word < len(s.FamilyMask) && s.FamilyMask[word]&(1<<(i%64)) != 0
}

// VersionsPerColumn returns the mean number of cells per column of a row.
func (s *Stats) VersionsPerColumn() float64 {
	if s.Columns == 0 {
		return 0
	}
	return s.Cells / s.Columns
}

// addRow folds one observed row into s with the given weight.
func (s *Stats) addRow(r *rowSummary, weight float64) {
	if s.Rows == 0 || r.key < string(s.FirstKey) {
		s.FirstKey = Key(r.key)
	}
	if s.Rows == 0 || r.key > string(s.LastKey) {
		s.LastKey = Key(r.key)
	}
	if r.cells > 0 {
		if s.Cells == 0 || r.firstWrite < s.FirstWrite {
			s.FirstWrite = r.firstWrite
		}
		if s.Cells == 0 || r.lastWrite > s.LastWrite {
			s.LastWrite = r.lastWrite
		}
	}
	s.Rows += weight
	s.Cells += weight * float64(r.cells)
	s.Bytes += weight * float64(r.bytes)
	s.ValueBytes += weight * float64(r.valueBytes)
	s.KeyBytes += weight * float64(r.keyBytes)
	s.Columns += weight * float64(r.columns)
	s.MaxRowBytes = max(s.MaxRowBytes, r.bytes)
	s.MaxRowCells = max(s.MaxRowCells, r.cells)
	s.MaxRowColumns = max(s.MaxRowColumns, r.columns)
	s.MaxCellBytes = max(s.MaxCellBytes, r.maxCellBytes)
	s.MaxVersions = max(s.MaxVersions, r.maxVersions)
	s.MaxKeyBytes = max(s.MaxKeyBytes, r.keyBytes)
	for _, family := range r.families {
		s.setFamily(family)
	}
}

func (s *Stats) setFamily(i int) {
	word := i / 64
	for len(s.FamilyMask) <= word {
		s.FamilyMask = append(s.FamilyMask, 0)
	}
	s.FamilyMask[word] |= 1 << (i % 64)
}

// Merge folds the aggregate other into s, as if s had also seen other's
// rows: counts add up, maxima and key and time bounds widen. It never
// writes to other; to aggregate nodes without touching them, merge them
// into a zero Stats.
func (s *Stats) Merge(other *Stats) { s.merge(other) }

// merge folds the aggregate other into s.
func (s *Stats) merge(other *Stats) {
	if other.Rows == 0 {
		return
	}
	if s.Rows == 0 || other.FirstKey < s.FirstKey {
		s.FirstKey = other.FirstKey
	}
	if s.Rows == 0 || other.LastKey > s.LastKey {
		s.LastKey = other.LastKey
	}
	if other.Cells > 0 {
		if s.Cells == 0 || other.FirstWrite < s.FirstWrite {
			s.FirstWrite = other.FirstWrite
		}
		if s.Cells == 0 || other.LastWrite > s.LastWrite {
			s.LastWrite = other.LastWrite
		}
	}
	s.combine(other, fold)
	for len(s.FamilyMask) < len(other.FamilyMask) {
		s.FamilyMask = append(s.FamilyMask, 0)
	}
	for i, word := range other.FamilyMask {
		s.FamilyMask[i] |= word
	}
}

// subtract takes the aggregate other, of some of s's rows, away from s,
// leaving the aggregate of the rest: the opposite of [Stats.merge].
// Counts go down, clamped at 0 against float drift. A maximum of s is
// kept where it exceeds other's (then it must be a row of the rest's);
// otherwise it is unknown but no larger than other's, and reported as 0.
// Key and time bounds and families stay s's.
func (s *Stats) subtract(other *Stats) { s.combine(other, takeAway) }

// combination is how [Stats.combine] sets a field of s from other's.
type combination bool

const (
	// fold adds counts and keeps the larger maximum ([Stats.merge]).
	fold combination = false
	// takeAway subtracts counts, clamped at 0, and keeps a maximum only
	// where it exceeds other's ([Stats.subtract]).
	takeAway combination = true
)

// count combines an additive field.
func (c combination) count(mine, other float64) float64 {
	if c == takeAway {
		return max(mine-other, 0)
	}
	return mine + other
}

// maximum combines a maximum over rows.
func (c combination) maximum(mine, other int64) int64 {
	if c == takeAway {
		if mine <= other {
			return 0
		}
		return mine
	}
	return max(mine, other)
}

// combine walks the counts and maxima of s once, setting each from s's
// and other's as c says: the one list of them [Stats.merge] and
// [Stats.subtract] share.
func (s *Stats) combine(other *Stats, c combination) {
	s.Rows = c.count(s.Rows, other.Rows)
	s.Cells = c.count(s.Cells, other.Cells)
	s.Bytes = c.count(s.Bytes, other.Bytes)
	s.ValueBytes = c.count(s.ValueBytes, other.ValueBytes)
	s.KeyBytes = c.count(s.KeyBytes, other.KeyBytes)
	s.Columns = c.count(s.Columns, other.Columns)
	s.MaxRowBytes = c.maximum(s.MaxRowBytes, other.MaxRowBytes)
	s.MaxRowCells = c.maximum(s.MaxRowCells, other.MaxRowCells)
	s.MaxRowColumns = c.maximum(s.MaxRowColumns, other.MaxRowColumns)
	s.MaxCellBytes = c.maximum(s.MaxCellBytes, other.MaxCellBytes)
	s.MaxVersions = c.maximum(s.MaxVersions, other.MaxVersions)
	s.MaxKeyBytes = c.maximum(s.MaxKeyBytes, other.MaxKeyBytes)
}

func (s *Stats) clone() Stats {
	c := *s
	c.FamilyMask = append([]uint64(nil), s.FamilyMask...)
	return c
}
