package sampler

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// The default mode reads every row of a table below both limits and a
// sample of a larger one. 1 GB is what a full scan moves in well under a
// minute at the few hundred MB/s eight parallel streams reach on Cloud
// Bigtable; 2M rows is about ten seconds of the emulator's read rate, the
// cost that matters there (its byte offsets count values only, so small
// rows make a big table look tiny). Above either limit the sample is
// sized to read about as much as the limit.
const (
	DefaultFullScanBytes = 1_000_000_000
	DefaultFullScanRows  = 2_000_000
)

// DefaultMaxReadBytes caps what a scan without --full reads when
// [Options.MaxRead] is 0: a sample (given or default) that would read more
// of the range's bytes is made smaller. 2 GB takes a minute or two on
// Cloud Bigtable and costs little; --max-read raises or lowers it.
const DefaultMaxReadBytes = 2_000_000_000

// minSampleRows is the fewest rows a sample aims to read, the smallest
// sample btviz reads: a fraction so small that it would read almost
// nothing (--sample 1e-9) reads about this many instead, and says so.
const minSampleRows = 200

// minDefaultFraction keeps a default sample of a huge table from being
// too thin to show its prefixes: at 0.1%, a 1% prefix of a 10M-row table
// is still seen about a hundred times. The read cap comes first: a table
// over 2 TB is sampled thinner, to stay under it.
const minDefaultFraction = 0.001

// emulatorSampleEvery is the emulator's sampling rate for SampleRowKeys:
// bttest returns each row with probability 1/100 (plus the last row), so
// each sample stands for about 100 rows.
const emulatorSampleEvery = 100

// modeChoice is how a scan reads rows, and why.
type modeChoice struct {
	mode     keyspace.Mode
	fraction float64 // share of rows read; 1 when full, 0 when unknown (MaxRows)
	maxRows  int64
	reason   string
	// why is what made a scan sample: "--sample", or the size of the
	// range in the default mode.
	why string
	// note says why the scan reads other than the user asked, when it
	// does: a --sample too small to read anything, a --max-rows below a
	// row a key range (see [Preview].Note).
	note string
}

// chooseMode applies the options' mode, or picks the default from the
// range's sampled bytes and (on an emulator, -1 elsewhere) estimated rows.
func chooseMode(opts Options, sampledBytes, estimatedRows int64) modeChoice {
	switch {
	case opts.Full:
		return modeChoice{mode: keyspace.ModeFull, fraction: 1, reason: "every row (--full)"}
	case opts.Fraction == 1:
		return modeChoice{mode: keyspace.ModeFull, fraction: 1, reason: "every row (--sample 1)"}
	case opts.Fraction > 0:
		return capSample(opts, modeChoice{mode: keyspace.ModeSample, fraction: opts.Fraction, why: "--sample"}, sampledBytes, estimatedRows)
	case opts.MaxRows > 0:
		return modeChoice{mode: keyspace.ModeSample, maxRows: opts.MaxRows, reason: fmt.Sprintf("about %d rows spread over the key ranges (--max-rows)", opts.MaxRows)}
	}
	fraction := 1.0
	var why string
	if sampledBytes > DefaultFullScanBytes {
		fraction = float64(DefaultFullScanBytes) / float64(sampledBytes)
		why = fmt.Sprintf("the range holds about %s, over the %s full-scan limit", units.Bytes(float64(sampledBytes)), units.Bytes(float64(DefaultFullScanBytes)))
	}
	if estimatedRows > DefaultFullScanRows {
		if f := float64(DefaultFullScanRows) / float64(estimatedRows); f < fraction {
			fraction = f
			why = fmt.Sprintf("the range holds about %s rows, over the %s-row full-scan limit", units.Short(float64(estimatedRows)), units.Short(DefaultFullScanRows))
		}
	}
	if fraction < 1 {
		fraction = max(fraction, minDefaultFraction)
	}
	// The read cap wins over the thinnest default sample: what a scan
	// reads stays under it.
	if readCap := maxRead(opts); float64(sampledBytes)*fraction > float64(readCap) {
		fraction = float64(readCap) / float64(sampledBytes)
		why = fmt.Sprintf("the range holds about %s, over the %s read cap (--max-read)", units.Bytes(float64(sampledBytes)), units.Bytes(float64(readCap)))
	}
	if fraction >= 1 {
		return modeChoice{mode: keyspace.ModeFull, fraction: 1, reason: "every row: the range is small enough to read in full"}
	}
	why += " (--full reads every row)"
	return capSample(opts, modeChoice{mode: keyspace.ModeSample, fraction: fraction, why: why}, sampledBytes, estimatedRows)
}

// maxRead returns the read cap of a scan: --max-read, or the default.
func maxRead(opts Options) int64 {
	if opts.MaxRead > 0 {
		return opts.MaxRead
	}
	return DefaultMaxReadBytes
}

// capSample makes a sample read no more than the read cap of the range's
// sampled bytes, and no fewer than about minSampleRows of its estimated
// rows (-1 when unknown), and words its reason.
func capSample(opts Options, c modeChoice, sampledBytes, estimatedRows int64) modeChoice {
	if readCap := maxRead(opts); c.why == "--sample" && float64(sampledBytes)*c.fraction > float64(readCap) {
		c.fraction = float64(readCap) / float64(sampledBytes)
		c.why = fmt.Sprintf("--sample %g would read about %s, over the %s read cap (--max-read)",
			opts.Fraction, units.Bytes(float64(sampledBytes)*opts.Fraction), units.Bytes(float64(readCap)))
	}
	if estimatedRows > 0 && c.fraction*float64(estimatedRows) < minSampleRows {
		wanted := c.fraction
		c.fraction = min(1, minSampleRows/float64(estimatedRows))
		c.why = fmt.Sprintf("a %s sample of about %s rows would read about %.0f; reading about %d, the smallest sample btviz reads",
			units.Percent(wanted), units.Short(float64(estimatedRows)), wanted*float64(estimatedRows), min(minSampleRows, estimatedRows))
		if opts.Fraction > 0 {
			c.note = fmt.Sprintf("--sample %g would read about %.0f of the range's about %s rows; reading about %d instead, the smallest sample btviz reads",
				opts.Fraction, opts.Fraction*float64(estimatedRows), units.Short(float64(estimatedRows)), min(minSampleRows, estimatedRows))
		}
		if c.fraction >= 1 {
			return modeChoice{mode: keyspace.ModeFull, fraction: 1, reason: "every row: " + c.why, note: c.note}
		}
	}
	c.reason = fmt.Sprintf("a %s sample of rows (RowSampleFilter", units.Percent(c.fraction))
	if c.why == "--sample" {
		c.reason += ", --sample)"
	} else {
		c.reason += "): " + c.why
	}
	return c
}
