package sampler

import (
	"errors"
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// DefaultConcurrency is how many key ranges a scan of Cloud Bigtable
// reads at once when [Options.Concurrency] is 0: enough to keep several
// tablet servers busy without flooding a small cluster.
const DefaultConcurrency = 8

// DefaultEmulatorConcurrency is the default for an emulator: one process,
// usually on the machine btviz runs on, that answers each ReadRows by
// gathering and sorting the rows asked for before it streams them. More
// reads in flight buy it nothing (a full scan of 1M rows took the same
// 4.0–4.5 s with 2, 4 or 8 on a two-core laptop), and each stream in
// flight can hold up to its flow-control window of rows received but not
// yet decoded, a window gRPC's bandwidth estimator widens during a long
// scan: scanning 5M rows peaked at 27 MB of heap with 2 reads in flight,
// 49 MB with 4 and 64 MB with 8 (500k rows: 23, 28, 32 MB).
const DefaultEmulatorConcurrency = 2

// DefaultStallTimeout is how long a scan lets a range go without a row
// before it checks that the server still answers (see
// [Options.StallTimeout]).
const DefaultStallTimeout = 10 * time.Second

// ErrBadOptions is returned (wrapped) by [Scan] for options that cannot be
// combined or are out of range; the message says which and what to do.
var ErrBadOptions = errors.New("bad scan options")

// Options say what [Scan] reads and how. The zero value scans the whole
// table in the default mode (every row of a small table, a sample of a
// large one) with values sized and the default number of reads in flight.
type Options struct {
	// Prefix restricts the scan to the keys that start with it; Start and
	// End to the keys in [Start, End), an empty End meaning the end of the
	// table. Prefix excludes Start and End. Keys are raw bytes (the command
	// line parses escapes with [keyspace.ParseKey]).
	Prefix, Start, End string
	// Full reads every row. Fraction (0 < Fraction ≤ 1) reads a random
	// sample of about that share of the rows (see the package doc for
	// how), each standing for about 1/Fraction rows. MaxRows
	// reads a budget of about MaxRows rows spread over the key ranges by
	// their sampled bytes. Give at most one; none picks the default mode
	// (see [DefaultFullScanBytes]).
	Full     bool
	Fraction float64
	MaxRows  int64
	// MaxRead caps the bytes (by SampleRowKeys' offsets) a scan without
	// Full reads: a sample that would read more is made smaller (default
	// [DefaultMaxReadBytes]).
	MaxRead int64
	// Concurrency is the number of reads in flight (default
	// [DefaultConcurrency]; [DefaultEmulatorConcurrency] on an emulator,
	// save for a sample inside tablets, which reads as on Cloud
	// Bigtable).
	Concurrency int
	// StripValues has the server strip cell values, which makes a scan
	// cheaper but leaves value and row sizes unknown (counted as 0), so
	// the bytes metrics, large-row findings and the oversized-row rescan
	// are off. btviz reads values (the zero value) unless told otherwise.
	StripValues bool
	// Delimiters fixes the key-segment delimiters; empty detects them.
	Delimiters string
	// Seed seeds the random choices of a scan: which key spans a span
	// sample reads (see [keyspace.MethodSpans]) and the snapshot's row
	// sample. Equal seeds over an unchanged table and tablet map give
	// equal snapshots (with Concurrency 1; with more readers rows reach
	// the builder in a varying order, which moves sums by rounding only).
	// The zero value is a seed like any other.
	Seed uint64
	// Progress, when set, receives [Progress] events from a goroutine of
	// its own: a slow receiver never slows the scan, it just sees fewer
	// events (each carries totals, so none is lost). Events arrive one at
	// a time; the last has Final set and arrives before [Scan] returns.
	Progress func(Progress)
	// Preview, when set, receives what the scan is about to read (see
	// [Preview]) once it is planned, before the rows are read (a span
	// sample of an emulator's table starts reading while its tablet map
	// still streams: there it comes when the map is done; a sample inside
	// tablets once it has cut its tablets into pieces and probed them, a
	// few keys each, which it counts as read).
	Preview func(Preview)
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time
	// StallTimeout is how long a range may go without a row before the
	// scan checks that the server still answers (default
	// [DefaultStallTimeout]). The client retries a vanished server
	// forever; this check turns that into an error.
	StallTimeout time.Duration

	// heldLimit overrides maxHeldBytes, for tests.
	heldLimit int64
	// rowsCounted, for tests, is called with the rows read so far each
	// time a reader counts the rows of a batch into them (before the scan
	// has a plan to report progress against: while a span sample's
	// tablet map still streams).
	rowsCounted func(total int64)
	// debugPieces, for tests, is called with what the reads of a
	// tablet's pieces found and how its bytes were split.
	debugPieces func(tablet int, pieces tabletPieces, budgets []pieceBudget, found []pieceRead, est []pieceEstimate, bytes []float64)
	// knownKeys, for tests, are keys the key maps of a position sample
	// (a table with a tablet map) learn when it is planned, before any
	// read (every key of a table gives them its true line: see
	// TestSampleAccuracyOnGeneratedShapes); other plans ignore them.
	knownKeys []string
	// noKinProfile, for tests, leaves the pieces of names without their
	// kin's profile (see [kinProfile]): the split as it was before.
	noKinProfile bool
	// noNameMarks, for tests, skips reading the first segments of the
	// prefixes of names (see [scanner.markNames]): their lines then leave
	// first names they miss on slivers, which the sweeps of tablets whose
	// spans read a few rows are tested on.
	noNameMarks bool
	// debugSweep, for tests, is called with the rows its spans read when
	// a tablet read on its line is swept (see [worker.readLine]).
	debugSweep func(tablet int, spanRows int64)
	// readRow, for tests, is called with the key of every row a reader
	// reads, on the reader's goroutine.
	readRow func(key string)
	// defaultConcurrency says Concurrency is a default, which the plan
	// may change (see [scanner.fitReaders]).
	defaultConcurrency bool
}

// bounds is the key range [start, end) a scan covers.
type bounds struct {
	start, end, prefix string
}

// MaxConcurrency is the most reads in flight a scan takes.
const MaxConcurrency = 256

// Validate checks that the options make sense, in the words of the
// command line's flags: the one check of a scan's options, which the
// command line makes before it connects and [Scan] makes again. The
// error wraps [ErrBadOptions].
func (o Options) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadOptions}, args...)...)
	}
	modes := 0
	for _, given := range []bool{o.Full, o.Fraction != 0, o.MaxRows != 0} {
		if given {
			modes++
		}
	}
	switch {
	case modes > 1:
		return bad("--full, --sample and --max-rows choose the scan mode: give at most one")
	case o.Fraction < 0 || o.Fraction > 1 || o.Fraction != o.Fraction:
		return bad("--sample %v: give a fraction of rows between 0 and 1, e.g. --sample 0.05", o.Fraction)
	case o.MaxRows < 0:
		return bad("--max-rows %d: give a positive number of rows", o.MaxRows)
	case o.MaxRead < 0:
		return bad("--max-read %d: give a positive number of bytes, e.g. --max-read 5GB", o.MaxRead)
	case o.MaxRead > 0 && o.Full:
		return bad("--full reads every row and --max-read caps what is read: give one or the other")
	case o.Concurrency < 0 || o.Concurrency > MaxConcurrency:
		return bad("--concurrency %d: give 1 to %d ranges read in parallel", o.Concurrency, MaxConcurrency)
	case o.Prefix != "" && (o.Start != "" || o.End != ""):
		return bad("--prefix and --start/--end both bound the key range: give one or the other")
	case o.End != "" && o.End <= o.Start:
		return bad("--start %s is not before --end %s: the range [start, end) would be empty",
			keyspace.Printable(o.Start), keyspace.Printable(o.End))
	}
	for _, c := range []byte(o.Delimiters) {
		if c < 0x21 || c > 0x7e {
			return bad("--delimiters %s: give printable characters such as '#:/'", keyspace.Printable(o.Delimiters))
		}
	}
	return nil
}

// normalize fills defaults (for an emulator when emulator is set) and
// checks that the options make sense.
func (o Options) normalize(emulator bool) (Options, bounds, error) {
	if err := o.Validate(); err != nil {
		return o, bounds{}, err
	}
	switch {
	case o.Concurrency == 0 && emulator:
		o.Concurrency, o.defaultConcurrency = DefaultEmulatorConcurrency, true
	case o.Concurrency == 0:
		o.Concurrency, o.defaultConcurrency = DefaultConcurrency, true
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.heldLimit <= 0 {
		o.heldLimit = maxHeldBytes
	}
	b := bounds{start: o.Start, end: o.End}
	if o.Prefix != "" {
		b = bounds{start: o.Prefix, end: keyspace.PrefixEnd(o.Prefix), prefix: o.Prefix}
	}
	return o, b, nil
}
