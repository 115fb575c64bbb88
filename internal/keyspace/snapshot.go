package keyspace

import (
	"slices"
	"time"

	"github.com/btviz/btviz/internal/units"
)

// Source says where a snapshot's data came from.
type Source string

const (
	// SourceBigtable is a Cloud Bigtable instance.
	SourceBigtable Source = "bigtable"
	// SourceEmulator is a Bigtable emulator (bttest, cbtemulator, gcloud's).
	SourceEmulator Source = "emulator"
)

// Mode says how rows were read.
type Mode string

const (
	// ModeFull read every row in the scanned range.
	ModeFull Mode = "full"
	// ModeSample read a sample of rows (see [ScanInfo].Method) or a row
	// budget; counts are scaled estimates.
	ModeSample Mode = "sample"
)

// IsSample reports whether rows were sampled (counts are then estimates),
// rather than all read.
func (m Mode) IsSample() bool { return m == ModeSample }

// SampleMethod says how a sampled scan chose the rows it read.
type SampleMethod string

const (
	// MethodRows had the server keep each row with probability Fraction
	// (RowSampleFilter); a row read stands for 1/Fraction rows.
	MethodRows SampleMethod = "rows"
	// MethodSpans read whole key spans between SampleRowKeys samples: one
	// span of every few consecutive spans (stratified) plus every span far
	// larger than typical; a row read stands for its group of spans (a
	// ratio estimate by the spans' sampled bytes).
	MethodSpans SampleMethod = "spans"
	// MethodPositions read short spans at positions inside each tablet,
	// spread between its boundary keys; a row read stands for the tablet's
	// bytes over the bytes its spans returned.
	MethodPositions SampleMethod = "positions"
)

// SampleMethods returns every [SampleMethod] a snapshot may name: the
// list a file is checked against.
func SampleMethods() []SampleMethod {
	return []SampleMethod{MethodRows, MethodSpans, MethodPositions}
}

// ScanInfo records how a snapshot was taken, so that every view can say
// what it shows and how sure it is.
type ScanInfo struct {
	Mode Mode `json:"mode"`
	// Fraction is the share of rows read (1 for a full scan).
	Fraction float64 `json:"fraction"`
	// Method says how a sampled scan chose what to read; empty for full
	// and --max-rows scans, and in files written before it existed.
	Method SampleMethod `json:"method,omitempty"`
	// MaxRows is the row budget of a --max-rows scan (0: none).
	MaxRows int64 `json:"max_rows,omitempty"`
	// Start and End bound the scanned key range [Start, End); Prefix is
	// set when the range was given as a prefix.
	Start  Key `json:"start"`
	End    Key `json:"end"`
	Prefix Key `json:"prefix,omitempty"`
	// ValuesRead is false when values were stripped: value and row sizes
	// are then unknown (counted as 0).
	ValuesRead  bool  `json:"values_read"`
	Concurrency int   `json:"concurrency,omitempty"`
	RowsRead    int64 `json:"rows_read"`
	CellsRead   int64 `json:"cells_read"`
	// RowsEstimated and BytesEstimated are the estimated totals of the
	// scanned range (equal to what was read in a full scan).
	RowsEstimated  int64 `json:"rows_estimated"`
	BytesEstimated int64 `json:"bytes_estimated"`
	// RowsEstimatedLow and RowsEstimatedHigh bound a 95% interval around
	// RowsEstimated from the sample's variance (both equal to it in a full
	// scan); BytesEstimatedLow and BytesEstimatedHigh the same for
	// BytesEstimated. A high end of 0 is unknown: a scan that stopped
	// part-way, or a file written before the intervals existed.
	RowsEstimatedLow   int64 `json:"rows_estimated_low,omitempty"`
	RowsEstimatedHigh  int64 `json:"rows_estimated_high,omitempty"`
	BytesEstimatedLow  int64 `json:"bytes_estimated_low,omitempty"`
	BytesEstimatedHigh int64 `json:"bytes_estimated_high,omitempty"`
	// PrefixVariances are, for a sample that measured them, the variances
	// of each top-level prefix's estimated rows and bytes, from the reads
	// that fell in it (see [Snapshot.NodeRowsInterval]), sorted by prefix;
	// none otherwise (a full scan, an emulator's span or row sample, a
	// file from before them).
	PrefixVariances []PrefixVariance `json:"prefix_variances,omitempty"`
	// Complete is false when the scan stopped early (cancelled, failed);
	// Incomplete then says why.
	Complete   bool          `json:"complete"`
	Incomplete string        `json:"incomplete,omitempty"`
	Started    time.Time     `json:"started"`
	Duration   time.Duration `json:"duration_ns"`
}

// PrefixVariance is the variance of a sample's estimates of one
// top-level prefix: of its rows and of its bytes, summed over the tablets
// it lies in.
type PrefixVariance struct {
	Prefix Key     `json:"prefix"`
	Rows   float64 `json:"rows"`
	Bytes  float64 `json:"bytes"`
}

// Range is one key range of the tablet map built from SampleRowKeys: a
// tablet on Cloud Bigtable, the span between two random sample keys on an
// emulator ([Snapshot.RangesAreTablets] tells which).
type Range struct {
	Start Key `json:"start"`
	End   Key `json:"end"`
	// SampledBytes is the size SampleRowKeys' offsets give the range.
	SampledBytes int64 `json:"sampled_bytes"`
	// Stats aggregate the rows the scan read in the range.
	Stats
	Writes TimeHist `json:"writes"`
	// Scanned is true once the scan finished the range; Rescanned when a
	// sampled scan re-read it in full because its sampled size was far
	// above what the sample saw (an oversized row hiding in it).
	Scanned   bool `json:"scanned"`
	Rescanned bool `json:"rescanned,omitempty"`
	// Unexplained is set when a sampled scan found the range far larger
	// than its sample explains and did not re-read it, its read cap
	// (--max-read) spent: an oversized row may hide in it.
	Unexplained bool `json:"unexplained,omitempty"`
}

// Snapshot is everything btviz knows about one table's key space: the
// tablet map, the prefix tree with per-node statistics and write-time
// histograms, the largest and most versioned rows, a uniform sample of
// rows, and how the scan was made. It is a plain value: built by a
// [Builder], saved and loaded by [Save] and [Load], and read by the
// heatmap, diagnostics and UI.
type Snapshot struct {
	Source     Source `json:"source"`
	Project    string `json:"project"`
	Instance   string `json:"instance"`
	Table      string `json:"table"`
	AppProfile string `json:"app_profile,omitempty"`
	// Families lists the table's column families, in the order the
	// family bit masks of [Stats] index them.
	Families []string `json:"families"`
	// Delimiters are the key-segment delimiter bytes the tree splits at.
	Delimiters string   `json:"delimiters"`
	Scan       ScanInfo `json:"scan"`
	// Ranges is the tablet map, sorted and covering the scanned range.
	Ranges []Range `json:"ranges"`
	// RangesAreTablets is true on Cloud Bigtable; on an emulator the
	// boundaries are random sample keys, not tablets.
	RangesAreTablets bool `json:"ranges_are_tablets"`
	// TreeDepth is the deepest level the prefix tree splits: nodes at
	// this depth hold their rows without children (the node budget made
	// the builder give up deeper levels), so drilling below it needs a
	// rescan of the node's range.
	TreeDepth int `json:"tree_depth"`
	// TimeBucketMicros is the width of every [TimeHist] bucket.
	TimeBucketMicros int64 `json:"time_bucket_micros"`
	Root             *Node `json:"root"`
	// Largest and MostVersioned are the table's top rows by bytes and by
	// versions of one column.
	Largest       []RowStat `json:"largest"`
	MostVersioned []RowStat `json:"most_versioned"`
	// Sample is a uniform reservoir sample of the rows read.
	Sample []SampledRow `json:"sample"`
	// LongKeys notes the longest keys over [KeptKeyBytes], which every
	// list of the snapshot holds cut to their first KeptKeyBytes bytes:
	// their full length and SHA-256.
	LongKeys []LongKey `json:"long_keys,omitempty"`
	// Traffic is set when the snapshot holds a traffic recording: what
	// an application's calls did to the table, beside (or instead of)
	// what a scan found stored.
	Traffic *Traffic `json:"traffic,omitempty"`
	// HotTablets is set when the snapshot holds the table's hot tablets
	// (Cloud Bigtable's ListHotTablets, or simulated): the node CPU the
	// table's key ranges used, placed on the tree's nodes ([Node.CPU]).
	HotTablets *HotTablets `json:"hot_tablets,omitempty"`
}

// Totals returns the aggregate of every row in the snapshot.
func (s *Snapshot) Totals() *Stats {
	if s.Root == nil {
		return &Stats{}
	}
	return &s.Root.Stats
}

// TimeSpan returns the absolute bucket indexes [first, last) that the
// snapshot's cell timestamps cover on its time grid, and the grid's
// bucket width in microseconds.
func (s *Snapshot) TimeSpan() (first, last, micros int64) {
	if s.Root == nil || len(s.Root.Writes.Counts) == 0 {
		return 0, 0, s.TimeBucketMicros
	}
	return s.Root.Writes.First, s.Root.Writes.Last(), s.TimeBucketMicros
}

// TrafficSpan returns the absolute bucket indexes [first, last) that the
// recorded traffic covers on the traffic time grid, and the grid's bucket
// width in microseconds (all 0 without a recording).
func (s *Snapshot) TrafficSpan() (first, last, micros int64) {
	if s.Traffic == nil || s.Root == nil || s.Root.Traffic == nil {
		return 0, 0, 0
	}
	first, last, _ = s.Root.Traffic.span()
	return first, last, s.Traffic.BucketMicros
}

// BucketTime returns the start time of absolute time bucket i.
func (s *Snapshot) BucketTime(i int64) time.Time {
	return time.UnixMicro(i * s.TimeBucketMicros).UTC()
}

// FamilyNames returns the names of the families whose bits are set in mask.
func (s *Snapshot) FamilyNames(stats *Stats) []string {
	var names []string
	for i, name := range s.Families {
		if stats.HasFamily(i) {
			names = append(names, name)
		}
	}
	return names
}

// Clone returns a deep copy of the snapshot.
func (s *Snapshot) Clone() *Snapshot {
	c := *s
	c.Families = append([]string(nil), s.Families...)
	c.Ranges = make([]Range, len(s.Ranges))
	for i := range s.Ranges {
		c.Ranges[i] = s.Ranges[i]
		c.Ranges[i].Stats = s.Ranges[i].Stats.clone()
		c.Ranges[i].Writes = s.Ranges[i].Writes.clone()
	}
	if s.Root != nil {
		c.Root = s.Root.clone()
	}
	c.Largest = append([]RowStat(nil), s.Largest...)
	c.MostVersioned = append([]RowStat(nil), s.MostVersioned...)
	c.Sample = append([]SampledRow(nil), s.Sample...)
	c.LongKeys = slices.Clone(s.LongKeys)
	c.Traffic = s.Traffic.clone()
	c.HotTablets = s.HotTablets.clone()
	return &c
}

// ModeText says in a few words how the rows were read, the same in every
// view and report: "full scan", "5% sample of key spans", "5% sample of
// rows", "sample of ≤10K rows".
func (s ScanInfo) ModeText() string {
	switch {
	case !s.Mode.IsSample():
		return "full scan"
	case s.MaxRows > 0:
		return "sample of ≤" + units.Short(float64(s.MaxRows)) + " rows"
	case s.Method == MethodSpans:
		return units.Percent(s.Fraction) + " sample of key spans"
	case s.Method == MethodRows:
		return units.Percent(s.Fraction) + " sample of rows"
	case s.Method == MethodPositions:
		return units.Percent(s.Fraction) + " sample inside tablets"
	}
	return units.Percent(s.Fraction) + " sample"
}
