package sampler

import (
	"fmt"
	"math"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Preview is what a scan is about to read, stated before it reads the
// rows: estimated from the tablet map (SampleRowKeys' byte offsets) and
// the pilot's rows (their size, and how fast they came). [Options].Preview
// receives it once the scan is planned.
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
	// full when it is small (see [planTablet]). A sample may add re-reads
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

// preview states the plan.
func (s *scanner) preview() Preview {
	p := s.plan
	read := int64(-1)
	switch {
	case p.method == keyspace.MethodPositions && p.shape.rowBytes > 0:
		// The fraction of the rows is what the spans read; each tablet
		// adds its probes, and reads at least minTabletSpans spans of
		// minSpanRows rows: a 0.1% sample of 200,000 rows on 50 tablets
		// reads about 1,400, not 200.
		read = int64(math.Round(p.readRows))
	case p.estimatedRows >= 0:
		read = int64(float64(p.estimatedRows) * p.fraction)
		if p.maxRows > 0 {
			var budget int64
			for _, limit := range p.limits {
				budget += limit
			}
			read = min(budget, p.estimatedRows)
		}
	}
	return Preview{
		Tablets: p.shape.tablets, Ranges: len(p.ranges),
		TotalBytes: p.totalBytes, TotalRows: p.estimatedRows,
		ReadBytes: p.readBytes, ReadRows: read,
		RowsPerSecond: p.shape.rowsPerSecond, Concurrency: s.opts.Concurrency,
		Reason: p.reason, Note: p.note,
	}
}

// announce hands the preview to [Options].Preview.
func (s *scanner) announce() {
	if s.opts.Preview != nil {
		s.opts.Preview(s.preview())
	}
}
