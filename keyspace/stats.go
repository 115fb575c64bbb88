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
	s.KeyBytes += weight * float64(len(r.key))
	s.Columns += weight * float64(r.columns)
	s.MaxRowBytes = max(s.MaxRowBytes, r.bytes)
	s.MaxRowCells = max(s.MaxRowCells, r.cells)
	s.MaxRowColumns = max(s.MaxRowColumns, r.columns)
	s.MaxCellBytes = max(s.MaxCellBytes, r.maxCellBytes)
	s.MaxVersions = max(s.MaxVersions, r.maxVersions)
	s.MaxKeyBytes = max(s.MaxKeyBytes, int64(len(r.key)))
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
	s.Rows += other.Rows
	s.Cells += other.Cells
	s.Bytes += other.Bytes
	s.ValueBytes += other.ValueBytes
	s.KeyBytes += other.KeyBytes
	s.Columns += other.Columns
	s.MaxRowBytes = max(s.MaxRowBytes, other.MaxRowBytes)
	s.MaxRowCells = max(s.MaxRowCells, other.MaxRowCells)
	s.MaxRowColumns = max(s.MaxRowColumns, other.MaxRowColumns)
	s.MaxCellBytes = max(s.MaxCellBytes, other.MaxCellBytes)
	s.MaxVersions = max(s.MaxVersions, other.MaxVersions)
	s.MaxKeyBytes = max(s.MaxKeyBytes, other.MaxKeyBytes)
	for len(s.FamilyMask) < len(other.FamilyMask) {
		s.FamilyMask = append(s.FamilyMask, 0)
	}
	for i, word := range other.FamilyMask {
		s.FamilyMask[i] |= word
	}
}

func (s *Stats) clone() Stats {
	c := *s
	c.FamilyMask = append([]uint64(nil), s.FamilyMask...)
	return c
}
