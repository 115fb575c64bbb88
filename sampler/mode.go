package sampler

import (
	"fmt"

	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/units"
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

// minDefaultFraction keeps a default sample of a huge table from being
// too thin to show its prefixes: at 0.1%, a 1% prefix of a 10M-row table
// is still seen about a hundred times.
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
		return modeChoice{mode: keyspace.ModeSample, fraction: opts.Fraction, why: "--sample",
			reason: fmt.Sprintf("a %s sample of rows (RowSampleFilter, --sample)", units.Percent(opts.Fraction))}
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
	if fraction >= 1 {
		return modeChoice{mode: keyspace.ModeFull, fraction: 1, reason: "every row: the range is small enough to read in full"}
	}
	fraction = max(fraction, minDefaultFraction)
	why += " (--full reads every row)"
	return modeChoice{mode: keyspace.ModeSample, fraction: fraction, why: why,
		reason: fmt.Sprintf("a %s sample of rows (RowSampleFilter): %s", units.Percent(fraction), why)}
}
