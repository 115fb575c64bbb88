package source

import (
	"errors"
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// ErrIncomplete is returned (wrapped, together with the cause) when a scan
// stopped part-way, cancelled or failed; the scan then still returns the
// snapshot of what it read, marked incomplete.
var ErrIncomplete = errors.New("scan incomplete")

// Progress is one report on a running scan (the sampler's, or a saved
// snapshot's one final event). Counts are totals so far, so a receiver that
// skips events misses nothing.
type Progress struct {
	// RangesDone of RangesTotal key ranges are finished.
	RangesDone, RangesTotal int
	// RowsRead and BytesRead count what came over the wire (rows as
	// read, not weighted; logical bytes), rescans included.
	RowsRead, BytesRead int64
	// Done is the share of the sampled bytes the scan reads (the whole
	// range's, or the chosen spans' in a span sample) covered so far,
	// from 0 to 1.
	Done float64
	// Elapsed is the time since the scan started; ETA the estimated time
	// left (0 while unknown).
	Elapsed, ETA  time.Duration
	RowsPerSecond float64
	// Rescans counts ranges re-read at full resolution because their
	// sampled bytes were far above what the sample saw.
	Rescans int
	// Mode, Fraction and Method (for a sample) say how rows are read,
	// Reason what exactly and why (for example "a 5% sample of key spans
	// (stratified, --sample); …" or "a 0.1% sample of rows
	// (RowSampleFilter): the range holds about 20 GB, …").
	Mode     keyspace.Mode
	Fraction float64
	Method   keyspace.SampleMethod
	Reason   string
	// Snapshot, when set, is a fresh copy of the snapshot so far (marked
	// incomplete), the receiver's to keep; at most a few a second. The
	// final event's is the snapshot the scan returns.
	Snapshot *keyspace.Snapshot
	// Final is set on the last event of a scan.
	Final bool
}

// Preview is what a scan is about to read, stated before it reads the
// rows: estimated from the tablet map (SampleRowKeys' byte offsets) and
// the pilot's rows (their size, and how fast they came). The sampler
// states it once the scan is planned.
type Preview struct {
	// Tablets is set when the tablet map is tablets (Cloud Bigtable, or
	// an emulator answering like it), not an emulator's row samples.
	Tablets bool
	// Ranges is the number of key ranges (tablets) in the scan's bounds.
	Ranges int
	// TotalBytes is the range's size by the offsets (value bytes on an
	// emulator); TotalRows the rows it holds at the pilot's row size (-1
	// when unknown).
	TotalBytes, TotalRows int64
	// ReadBytes and ReadRows are what the scan expects to read after
	// the pilot's rows (ReadRows -1 when unknown): on tablets, every
	// tablet's spans at their budgets and its probes, or the tablet in
	// full when it is small (see the sampler's planTablet). A sample may add re-reads
	// of ranges holding an oversized row, and sweeps of tablets whose
	// spans found no rows; spans in keys sparser than the tablet map
	// says read less.
	ReadBytes, ReadRows int64
	// RowsPerSecond is the pilot's read rate on one stream, Concurrency
	// the streams the scan reads with.
	RowsPerSecond float64
	Concurrency   int
	// Reason says how the scan reads and why (see [Progress].Reason).
	Reason string
	// Note, when set, says why the scan reads other than the user asked:
	// a --sample so small that it would read almost nothing reads about
	// 200 rows, the smallest sample btviz reads; a --max-rows below a row
	// a key range reads one row a range. Reason says it too.
	Note string
}

// Duration is how long reading ReadRows takes at the pilot's rate on
// every stream: a rough figure (the pilot's few rows carry a whole call's
// latency, which makes it an overstatement on a fast server); 0 when
// unknown.
func (p Preview) Duration() time.Duration {
	if p.ReadRows < 0 || p.RowsPerSecond <= 0 || p.Concurrency <= 0 {
		return 0
	}
	return time.Duration(float64(p.ReadRows) / (p.RowsPerSecond * float64(p.Concurrency)) * float64(time.Second))
}

// String says in one line what the scan will read.
func (p Preview) String() string {
	text := "will read " + p.Amount()
	if t := p.Time(); t != "" {
		text += ", " + t
	}
	return text + ": " + p.Reason
}

// Amount says how much the scan will read of how much: "about 2,732
// rows (364 KB) of about 203,694 rows (27 MB) in 50 tablets".
func (p Preview) Amount() string {
	rows := func(n int64) string {
		if n < 0 {
			return "an unknown number of"
		}
		return "about " + units.Thousands(n)
	}
	return fmt.Sprintf("%s rows (%s) of %s rows (%s) in %d %s",
		rows(p.ReadRows), units.Bytes(float64(p.ReadBytes)), rows(p.TotalRows), units.Bytes(float64(p.TotalBytes)), p.Ranges, map[bool]string{true: "tablets", false: "key ranges"}[p.Tablets])
}

// Time says how long the reads take at the pilot's rate ([Preview.Duration]),
// and at what rate; empty when unknown.
func (p Preview) Time() string {
	d := p.Duration()
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf("about %s at the first read's %s rows/s on each of %d streams", units.Duration(max(d, time.Second)), units.Short(p.RowsPerSecond), p.Concurrency)
}
