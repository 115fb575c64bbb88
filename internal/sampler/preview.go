package sampler

import (
	"math"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// Preview is what a scan is about to read, stated before it reads the
// rows ([source.Preview]); [Options].Preview receives it once the scan is
// planned.
type Preview = source.Preview

// preview states the plan.
func (s *scanner) preview() Preview {
	p := s.plan
	read := int64(-1)
	switch {
	case p.method == keyspace.MethodPositions && p.shape.rowBytes > 0:
		// What the tablets' cuts and probes read, then the spans: the
		// fraction of the rows (more in the pieces no model predicts, see
		// [pieceBoost]), at least minTabletSpans spans of minSpanRows rows
		// a tablet (a 0.1% sample of 200,000 rows on 50 tablets reads
		// about 2,000, not 200), or the tablet in full.
		read = s.rowsRead.Load()
		for _, t := range p.tablets {
			if t.whole {
				read += int64(math.Round(t.rows))
			} else {
				read += int64(math.Round(float64(int64(t.spans)*t.budget) * (1 + t.boosted*(pieceBoost-1))))
			}
		}
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
