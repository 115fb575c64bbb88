package keyspace

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/btviz/btviz/internal/escape"
)

// Bounds a snapshot file must keep within. A [Builder] stays far inside
// them (see [Options]); a file beyond them was not written by btviz, and
// reading it on would cost unbounded memory or time.
const (
	// maxFileNodes bounds the prefix tree (a build keeps 20,000 by default).
	maxFileNodes = 1 << 20
	// maxFileRanges bounds the tablet map (a large table has thousands).
	maxFileRanges = 1 << 20
	// maxFileRowList bounds the sample and every top-rows list.
	maxFileRowList = 1 << 20
	// maxFileColumns bounds a row's column detail.
	maxFileColumns = 1 << 10
	// maxFileFamilies bounds the family list (Cloud Bigtable allows 1,000).
	maxFileFamilies = 1 << 12
	// maxFileTreeDepth bounds the tree's nesting: one level per key
	// segment, and a row key is at most 4 KB.
	maxFileTreeDepth = 4096
	// maxFileKeyBytes bounds a key of a file: 16 times Cloud Bigtable's
	// hard limit of 4 KiB on a row key. Keys over that limit exist only
	// on an emulator, which has none (the long-row-key finding reports
	// them, and the demo's test tables hold 5 KB keys), so a snapshot of
	// one must still load; a key of megabytes is not a key, and every
	// label, path and copy of it would cost that much.
	maxFileKeyBytes = 64 << 10
	// maxFileDelimiters bounds the delimiter list.
	maxFileDelimiters = 256
	// maxFileCount bounds every count and size: 10^18 rows, cells or
	// bytes is far beyond any table, and sums of a million such counts
	// stay finite.
	maxFileCount = 1e18
	// maxTimeBucketMicros bounds the width of a time bucket: 2^62 µs
	// covers every cell timestamp in a handful of buckets.
	maxTimeBucketMicros = 1 << 62
)

// sumSlack is how far the children's sums may exceed their parent's
// totals (relative, then absolute) before the file is called inconsistent:
// room for the rounding of sampled weights added in different orders.
const (
	sumSlackRelative = 1e-6
	sumSlackAbsolute = 1e-6
)

// A FieldError says which value of a snapshot file is wrong, by its JSON
// path in the file ("snapshot.root.children[3].writes.first"), and why.
type FieldError struct {
	Path    string
	Problem string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Problem }

// validator checks a decoded snapshot against the invariants the rest of
// btviz relies on, stopping at the first value that breaks one.
type validator struct {
	snap *Snapshot
	// path is the snapshot's own path in its file ("snapshot",
	// "recording.tables[2]").
	path string
	// timeFirst and timeLast bound the snapshot's time grid: the root
	// histogram's buckets [timeFirst, timeLast).
	timeFirst, timeLast int64
	// trafficFirst and trafficLast bound a recording's time grid: the
	// union of the root's traffic histograms.
	trafficFirst, trafficLast int64
	nodes                     int
	// scratch holds, per tree level, the children's histogram sums.
	scratch [][]float64
}

// validate checks every value of s that later code depends on: known
// enumerations, counts non-negative and bounded, times on a grid whose
// arithmetic cannot overflow, first ≤ last, bounded lists, no missing
// nodes, children sorted, disjoint and inside their parent, and children
// that add up to no more than their parent. It returns a [*FieldError].
func (s *Snapshot) validate(path string) error {
	v := &validator{snap: s, path: path}
	return v.snapshot(path)
}

func problem(path, format string, args ...any) error {
	return &FieldError{Path: path, Problem: fmt.Sprintf(format, args...)}
}

func (v *validator) snapshot(path string) error {
	s := v.snap
	switch s.Source {
	case "", SourceBigtable, SourceEmulator:
	default:
		return problem(path+".source", "unknown source %s (want bigtable or emulator)", escape.Quote(string(s.Source)))
	}
	if len(s.Families) > maxFileFamilies {
		return problem(path+".families", "%d families, more than the %d a table can have", len(s.Families), maxFileFamilies)
	}
	if len(s.Delimiters) > maxFileDelimiters {
		return problem(path+".delimiters", "%d delimiters; a key has at most %d byte values", len(s.Delimiters), maxFileDelimiters)
	}
	if err := v.scan(path + ".scan"); err != nil {
		return err
	}
	if s.TimeBucketMicros <= 0 || s.TimeBucketMicros > maxTimeBucketMicros {
		return problem(path+".time_bucket_micros", "time bucket width %d µs is not between 1 and 2^62", s.TimeBucketMicros)
	}
	if s.TreeDepth < 0 || s.TreeDepth > maxFileTreeDepth {
		return problem(path+".tree_depth", "%d is not between 0 and %d", s.TreeDepth, maxFileTreeDepth)
	}
	if s.Root == nil {
		return problem(path+".root", "missing: the file has no prefix tree")
	}
	if err := v.timeGrid(path + ".root.writes"); err != nil {
		return err
	}
	if err := v.trafficGrid(path); err != nil {
		return err
	}
	if err := v.root(path + ".root"); err != nil {
		return err
	}
	if err := v.ranges(path + ".ranges"); err != nil {
		return err
	}
	if err := hotTablets(path+".hot_tablets", s.HotTablets); err != nil {
		return err
	}
	for _, list := range []struct {
		name string
		rows []RowStat
	}{{"largest", s.Largest}, {"most_versioned", s.MostVersioned}} {
		if err := v.rowStats(path+"."+list.name, list.rows); err != nil {
			return err
		}
	}
	if err := v.longKeys(path+".long_keys", s.LongKeys); err != nil {
		return err
	}
	return v.sample(path+".sample", s.Sample)
}

// longKeys checks the notes of keys cut to [KeptKeyBytes]: each a key as
// kept, a length above it and a SHA-256 written in hex.
func (v *validator) longKeys(path string, keys []LongKey) error {
	if len(keys) > maxFileRowList {
		return problem(path, "%d keys, more than %d", len(keys), maxFileRowList)
	}
	for i, k := range keys {
		keyPath := path + "[" + strconv.Itoa(i) + "]"
		if k.Bytes < int64(len(k.Key)) || k.Bytes > maxFileCount {
			return problem(keyPath+".bytes", "%d is not a key length of at least the %d bytes kept", k.Bytes, len(k.Key))
		}
		if len(k.SHA256) != 64 || strings.Trim(k.SHA256, "0123456789abcdef") != "" {
			return problem(keyPath+".sha256", "%s is not a SHA-256 in hex", escape.Quote(cutText(k.SHA256)))
		}
	}
	return nil
}

func (v *validator) scan(path string) error {
	scan := &v.snap.Scan
	switch scan.Mode {
	case "", ModeFull, ModeSample:
	default:
		return problem(path+".mode", "unknown scan mode %s (want full or sample)", escape.Quote(string(scan.Mode)))
	}
	if scan.Method != "" && !slices.Contains(SampleMethods(), scan.Method) {
		return problem(path+".method", "unknown sample method %s (want one of %v)", escape.Quote(string(scan.Method)), SampleMethods())
	}
	if math.IsNaN(scan.Fraction) || scan.Fraction < 0 || scan.Fraction > 1 {
		return problem(path+".fraction", "%v is not a share between 0 and 1", scan.Fraction)
	}
	for _, f := range []struct {
		name  string
		value int64
	}{
		{"max_rows", scan.MaxRows}, {"concurrency", int64(scan.Concurrency)}, {"rows_read", scan.RowsRead},
		{"cells_read", scan.CellsRead}, {"rows_estimated", scan.RowsEstimated},
		{"rows_estimated_low", scan.RowsEstimatedLow}, {"rows_estimated_high", scan.RowsEstimatedHigh},
		{"bytes_estimated", scan.BytesEstimated}, {"bytes_estimated_low", scan.BytesEstimatedLow},
		{"bytes_estimated_high", scan.BytesEstimatedHigh}, {"duration_ns", int64(scan.Duration)},
	} {
		if f.value < 0 || f.value > maxFileCount {
			return problem(path+"."+f.name, "%d is not a count between 0 and %g", f.value, float64(maxFileCount))
		}
	}
	for _, interval := range []struct {
		name                string
		low, estimate, high int64
	}{
		{"rows_estimated", scan.RowsEstimatedLow, scan.RowsEstimated, scan.RowsEstimatedHigh},
		{"bytes_estimated", scan.BytesEstimatedLow, scan.BytesEstimated, scan.BytesEstimatedHigh},
	} {
		// A high end of 0 is unknown (a scan that stopped part-way, a
		// file from before the intervals); the low end is 0 or known.
		if interval.low > interval.estimate || interval.high != 0 && interval.estimate > interval.high {
			return problem(path+"."+interval.name, "%d is not inside its 95%% interval [%d, %d] (%s_low, %s_high)",
				interval.estimate, interval.low, interval.high, interval.name, interval.name)
		}
	}
	if scan.End != "" && scan.End <= scan.Start {
		return problem(path+".end", "%v does not come after the start %v", scan.End, scan.Start)
	}
	if len(scan.PrefixVariances) > maxFileNodes {
		// One a top-level prefix: no more than the tree's nodes.
		return problem(path+".prefix_variances", "%d prefixes, more than %d", len(scan.PrefixVariances), maxFileNodes)
	}
	for i, pv := range scan.PrefixVariances {
		at := fmt.Sprintf("%s.prefix_variances[%d]", path, i)
		if i > 0 && pv.Prefix <= scan.PrefixVariances[i-1].Prefix {
			return problem(at+".prefix", "%v does not come after the prefix before it", pv.Prefix)
		}
		for _, v := range []float64{pv.Rows, pv.Bytes} {
			if math.IsNaN(v) || v < 0 || math.IsInf(v, 1) {
				return problem(at, "%g is not a variance (a number from 0 up)", v)
			}
		}
	}
	return nil
}

// timeGrid checks the root histogram, which spans every other one: at
// most [MaxTimeBuckets] buckets, each holding times a cell timestamp (an
// int64 of microseconds) can have.
func (v *validator) timeGrid(path string) error {
	h := &v.snap.Root.Writes
	if len(h.Counts) > MaxTimeBuckets {
		return problem(path+".counts", "%d buckets, more than the %d a snapshot's time axis has", len(h.Counts), MaxTimeBuckets)
	}
	width := v.snap.TimeBucketMicros
	if h.First < floorDiv(math.MinInt64, width) || h.First > floorDiv(math.MaxInt64, width)-max(int64(len(h.Counts))-1, 0) {
		return problem(path+".first", "bucket %d of %d µs is beyond any cell timestamp", h.First, width)
	}
	v.timeFirst, v.timeLast = h.First, h.Last()
	return nil
}

// root checks the prefix tree: the root covers the whole table, and every
// node below it is checked by node.
func (v *validator) root(path string) error {
	root := v.snap.Root
	if root.Kind != KindPrefix || root.Depth != 0 || root.Prefix != "" || root.Start != "" || root.End != "" {
		return problem(path, "the root must be the prefix node of the whole table (kind prefix, depth 0, empty prefix, start and end)")
	}
	v.nodes = 0
	return v.node(path, root)
}

func (v *validator) node(path string, n *Node) error {
	v.nodes++
	if v.nodes > maxFileNodes {
		return problem(path, "the tree has more than %d nodes", maxFileNodes)
	}
	if n.Kind > KindRange {
		return problem(path+".kind", "unknown node kind %d", n.Kind)
	}
	if n.Depth > maxFileTreeDepth {
		return problem(path+".depth", "%d levels, deeper than any key", n.Depth)
	}
	if n.End != "" && n.End <= n.Start {
		return problem(path+".end", "%v does not come after the start %v", n.End, n.Start)
	}
	if err := v.stats(path, &n.Stats); err != nil {
		return err
	}
	if err := v.hist(path+".writes", &n.Writes); err != nil {
		return err
	}
	if err := v.rowStats(path+".top", n.Top); err != nil {
		return err
	}
	if err := v.rowStats(path+".top_versioned", n.TopVersioned); err != nil {
		return err
	}
	if n.Traffic != nil {
		if err := v.nodeTraffic(path+".traffic", n.Traffic); err != nil {
			return err
		}
	}
	if len(n.Children) == 0 {
		return nil
	}
	if n.Kind != KindPrefix {
		return problem(path+".children", "a %s node has no children; only prefix nodes do", n.Kind)
	}
	var sum Stats
	for i, child := range n.Children {
		childPath := path + ".children[" + strconv.Itoa(i) + "]"
		if child == nil {
			return problem(childPath, "null where a node belongs")
		}
		if child.Depth != n.Depth+1 {
			return problem(childPath+".depth", "%d under a node of depth %d (want %d)", child.Depth, n.Depth, n.Depth+1)
		}
		if child.Start < n.Start || EndBefore(string(n.End), string(child.End)) {
			return problem(childPath, "its key range [%v, %v) is not inside its parent's [%v, %v)", child.Start, child.End, n.Start, n.End)
		}
		if i > 0 {
			prev := n.Children[i-1]
			if prev == nil || prev.End == "" || child.Start < prev.End {
				return problem(childPath+".start", "%v overlaps or precedes the sibling before it", child.Start)
			}
		}
		if err := v.node(childPath, child); err != nil {
			return err
		}
		sum.Rows += child.Rows
		sum.Cells += child.Cells
		sum.Bytes += child.Bytes
	}
	for _, f := range []struct {
		name        string
		sum, parent float64
	}{{"rows", sum.Rows, n.Rows}, {"cells", sum.Cells, n.Cells}, {"bytes", sum.Bytes, n.Bytes}} {
		if exceeds(f.sum, f.parent) {
			return problem(path+"."+f.name, "%g, but its children hold %g: a node holds every row under it", f.parent, f.sum)
		}
	}
	return v.childWrites(path, n)
}

// childWrites checks that in every time bucket the children's writes add
// up to no more than their parent's: every cell under a node is counted
// in the node's histogram.
func (v *validator) childWrites(path string, n *Node) error {
	for len(v.scratch) <= n.Depth {
		v.scratch = append(v.scratch, make([]float64, MaxTimeBuckets))
	}
	sums := v.scratch[n.Depth][:v.timeLast-v.timeFirst]
	clear(sums)
	for _, child := range n.Children {
		for j, c := range child.Writes.Counts {
			sums[child.Writes.First+int64(j)-v.timeFirst] += c
		}
	}
	for k, sum := range sums {
		if exceeds(sum, n.Writes.At(v.timeFirst+int64(k))) {
			return problem(path+".writes", "%g cells written in bucket %d, but its children hold %g there", n.Writes.At(v.timeFirst+int64(k)), v.timeFirst+int64(k), sum)
		}
	}
	return nil
}

// exceeds reports whether a sum of parts is larger than the whole it is
// part of, beyond rounding.
func exceeds(sum, whole float64) bool {
	return sum > whole*(1+sumSlackRelative)+sumSlackAbsolute
}

// hist checks a histogram: bucket counts are valid counts, and the
// buckets lie on the snapshot's time grid (the root histogram's span).
func (v *validator) hist(path string, h *TimeHist) error {
	return histWithin(path, h, v.timeFirst, v.timeLast, "the table's write times")
}

// histWithin checks a histogram's counts and that its buckets lie in
// [first, last), the span of its grid that the root's histograms occupy
// (called grid in messages).
func histWithin(path string, h *TimeHist, first, last int64, grid string) error {
	if len(h.Counts) > MaxTimeBuckets {
		return problem(path+".counts", "%d buckets, more than the %d a snapshot's time axis has", len(h.Counts), MaxTimeBuckets)
	}
	for j, c := range h.Counts {
		if err := count(path+".counts["+strconv.Itoa(j)+"]", c); err != nil {
			return err
		}
	}
	if len(h.Counts) > 0 && (h.First < first || h.First > last-int64(len(h.Counts))) {
		return problem(path+".first", "buckets [%d, %d) lie outside %s [%d, %d)", h.First, h.Last(), grid, first, last)
	}
	return nil
}

// count checks one count or size: a finite number from 0 to [maxFileCount].
func count(path string, c float64) error {
	if math.IsNaN(c) || c < 0 || c > maxFileCount {
		return problem(path, "%g is not a count between 0 and %g", c, float64(maxFileCount))
	}
	return nil
}

func (v *validator) stats(path string, s *Stats) error {
	err := counts(path,
		field{"rows", s.Rows}, field{"cells", s.Cells}, field{"bytes", s.Bytes}, field{"value_bytes", s.ValueBytes},
		field{"key_bytes", s.KeyBytes}, field{"columns", s.Columns},
		field{"max_row_bytes", float64(s.MaxRowBytes)}, field{"max_row_cells", float64(s.MaxRowCells)},
		field{"max_row_columns", float64(s.MaxRowColumns)}, field{"max_cell_bytes", float64(s.MaxCellBytes)},
		field{"max_versions", float64(s.MaxVersions)}, field{"max_key_bytes", float64(s.MaxKeyBytes)})
	if err != nil {
		return err
	}
	if s.Rows > 0 && s.LastKey < s.FirstKey {
		return problem(path+".last_key", "%v comes before first_key %v", s.LastKey, s.FirstKey)
	}
	if s.Cells > 0 {
		if err := v.writeTimes(path, s.FirstWrite, s.LastWrite); err != nil {
			return err
		}
	}
	if words := (len(v.snap.Families) + 63) / 64; len(s.FamilyMask) > words {
		return problem(path+".family_mask", "%d words for %d families", len(s.FamilyMask), len(v.snap.Families))
	}
	return nil
}

// writeTimes checks a pair of cell timestamps: first ≤ last, both on the
// snapshot's time grid.
func (v *validator) writeTimes(path string, first, last int64) error {
	if last < first {
		return problem(path+".last_write", "%d comes before first_write %d", last, first)
	}
	width := v.snap.TimeBucketMicros
	for _, f := range []struct {
		name   string
		micros int64
	}{{"first_write", first}, {"last_write", last}} {
		if b := floorDiv(f.micros, width); b < v.timeFirst || b >= v.timeLast {
			return problem(path+"."+f.name, "%d µs is time bucket %d, outside the table's write-time buckets [%d, %d) (%s.root.writes)",
				f.micros, b, v.timeFirst, v.timeLast, v.path)
		}
	}
	return nil
}

func (v *validator) ranges(path string) error {
	ranges := v.snap.Ranges
	if len(ranges) > maxFileRanges {
		return problem(path, "%d ranges, more than %d", len(ranges), maxFileRanges)
	}
	var rows float64
	for i := range ranges {
		r := &ranges[i]
		rangePath := path + "[" + strconv.Itoa(i) + "]"
		if r.End != "" && r.End <= r.Start {
			return problem(rangePath+".end", "%v does not come after the start %v", r.End, r.Start)
		}
		if i > 0 && (ranges[i-1].End == "" || r.Start < ranges[i-1].End) {
			return problem(rangePath+".start", "%v overlaps or precedes the range before it", r.Start)
		}
		if err := count(rangePath+".sampled_bytes", float64(r.SampledBytes)); err != nil {
			return err
		}
		if err := v.stats(rangePath, &r.Stats); err != nil {
			return err
		}
		if err := v.hist(rangePath+".writes", &r.Writes); err != nil {
			return err
		}
		rows += r.Rows
	}
	if exceeds(rows, v.snap.Root.Rows) {
		return problem(path, "the ranges hold %g rows, more than the table's %g", rows, v.snap.Root.Rows)
	}
	return nil
}

func (v *validator) rowStats(path string, rows []RowStat) error {
	if len(rows) > maxFileRowList {
		return problem(path, "%d rows, more than %d", len(rows), maxFileRowList)
	}
	for i := range rows {
		r := &rows[i]
		rowPath := path + "[" + strconv.Itoa(i) + "]"
		err := v.row(rowPath, r.Cells, r.FirstWrite, r.LastWrite,
			field{"bytes", float64(r.Bytes)}, field{"cells", float64(r.Cells)}, field{"columns", float64(r.Columns)},
			field{"families", float64(r.Families)}, field{"max_versions", float64(r.MaxVersions)}, field{"max_cell_bytes", float64(r.MaxCellBytes)})
		if err != nil {
			return err
		}
		if len(r.TopColumns) > maxFileColumns {
			return problem(rowPath+".top_columns", "%d columns, more than %d", len(r.TopColumns), maxFileColumns)
		}
		for j, c := range r.TopColumns {
			err := counts(rowPath+".top_columns["+strconv.Itoa(j)+"]",
				field{"versions", float64(c.Versions)}, field{"bytes", float64(c.Bytes)}, field{"max_bytes", float64(c.MaxBytes)})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (v *validator) sample(path string, rows []SampledRow) error {
	if len(rows) > maxFileRowList {
		return problem(path, "%d rows, more than %d", len(rows), maxFileRowList)
	}
	for i := range rows {
		r := &rows[i]
		err := v.row(path+"["+strconv.Itoa(i)+"]", r.Cells, r.FirstWrite, r.LastWrite,
			field{"weight", r.Weight}, field{"bytes", float64(r.Bytes)}, field{"cells", float64(r.Cells)},
			field{"columns", float64(r.Columns)}, field{"max_versions", float64(r.MaxVersions)})
		if err != nil {
			return err
		}
	}
	return nil
}

// field is one named count of a record, for [counts].
type field struct {
	name  string
	value float64
}

// counts checks every field of the record at path with [count].
func counts(path string, fields ...field) error {
	for _, f := range fields {
		if err := count(path+"."+f.name, f.value); err != nil {
			return err
		}
	}
	return nil
}

// row checks a row's counts and, when it has cells, its write times.
func (v *validator) row(path string, cells, firstWrite, lastWrite int64, fields ...field) error {
	if err := counts(path, fields...); err != nil {
		return err
	}
	if cells > 0 {
		return v.writeTimes(path, firstWrite, lastWrite)
	}
	return nil
}
