// Package sampler reads a Bigtable table's key space into a
// [keyspace.Snapshot]: the tablet map from SampleRowKeys (with byte
// offsets, through the data API's raw stub), then the rows of the
// requested key range, split at the tablet boundaries and read with
// [Options.Concurrency] reads in flight through the official client,
// aggregated by one [keyspace.Builder] on one goroutine. Memory grows with
// the builder's buckets, not with the rows read.
//
// # The tablet map's shape
//
// The scan plans from what SampleRowKeys answers, not from who answers.
// An emulator answers about one row in a hundred, picked at random, with
// the bytes of values before each; Cloud Bigtable answers tablet
// boundaries, many thousands of rows apart, with stored bytes. Before it
// plans, a scan reads the first [pilotRows] rows of its range (the
// pilot) for the size of a row. Spans from Cloud Bigtable are tablets
// whatever they hold; an emulator's are taken for tablets when the median
// one holds [tabletRows] rows or more at the pilot's median row size (see
// mapShape.judge) and its median span and that span's two neighbours by
// bytes hold [checkRows] rows each when counted (see
// scanner.medianSpanHoldsTablet). The pilot's keys also fix the scan's delimiters. Tablets are the snapshot's ranges (RangesAreTablets, which
// tablet-skew and the tablet bucketing need); an emulator's samples are
// merged into a few hundred ranges. An emulator whose SampleRowKeys
// answers tablets (internal/emulator/cloudlike, for tests) is sampled exactly as
// Cloud Bigtable would be. What the endpoint decides is only what the
// offsets count: value bytes on an emulator, stored bytes on Cloud
// Bigtable (see scanner.comparable).
//
// # Modes and estimators
//
//   - Full reads every row; every count is exact.
//   - Sample (Options.Fraction F) reads about F of the rows, in one of
//     three ways; [keyspace.ScanInfo].Method and [Progress].Method say
//     which, [Progress].Reason says so in words.
//   - Positions ([keyspace.MethodPositions]), on tablets: each tablet is
//     read at a few positions spread over its keys' line on a key map of
//     its top-level prefix, learned from that prefix's own keys; a tablet
//     that holds the end of one top-level prefix and the start of the
//     next is first cut into pieces, one per prefix, each on its own
//     prefix's line. Short spans, each with a row limit, are spread over
//     each line; each row a span read stands for B/b rows, B the tablet's
//     bytes by the offsets and b the bytes its spans returned (a ratio
//     estimator: the tablet's bytes come out exact, its rows, cells and
//     prefixes in proportion to what the spans saw, and every row of the
//     tablet has the same chance to be read), a piece's for its share of
//     the tablet's bytes by its spans and a model of its prefix's density
//     (for names, of the density its kin share: see [kinProfile]).
//     No RowSampleFilter: the server reads about the rows the scan gets. A
//     tablet whose bytes the spans cannot explain is read in full (an
//     oversized row); see the comment above [spanRows] for the details.
//   - Spans ([keyspace.MethodSpans]), on an emulator's fine samples:
//     whole key spans between SampleRowKeys samples, one drawn by size
//     from each group of consecutive spans, each of its rows standing for
//     the group's bytes over the span's (Hansen–Hurwitz: unbiased, exact
//     for the sampled bytes), plus every span far larger than its
//     neighbours and every span holding a top-level prefix boundary, read
//     with weight 1. The server reads only the spans chosen, so a 5%
//     sample costs about 5% of a full scan plus SampleRowKeys; see
//     [spanPlanner] for the estimator, the groups, and why prefix shares
//     and oversized rows come out right. It needs at least
//     [minSpanGroups] groups: an emulator's table of a million rows or
//     more at 5%.
//   - Rows ([keyspace.MethodRows]), on an emulator's samples too few for
//     spans: the server keeps each row with probability F
//     (RowSampleFilter); each row read stands for 1/F rows
//     (Horvitz–Thompson), so counts, bytes and histograms are unbiased
//     with a relative error of about 1/sqrt(rows read) per bucket. The
//     server still reads every row of the ranges asked for, which on such
//     a small table costs little.
//   - MaxRows N spreads a budget of N rows over the ranges in proportion
//     to their sampled bytes and reads the first rows of each range
//     (LimitRows). A range that ends within its budget was read in full
//     (weight 1); otherwise each row stands for E/seen rows, E the range's
//     sampled bytes and seen the bytes of the rows read in the same units
//     (a ratio estimator that assumes the rows read are typical of their
//     range in size).
//   - With no mode given, the scan reads every row of a range under
//     [DefaultFullScanBytes] and [DefaultFullScanRows] rows, and samples a
//     larger one at the fraction that reads about that much. [Progress].Reason
//     and the snapshot's Scan.Mode and Scan.Fraction say which.
//
// Any sample reads at most [Options.MaxRead] bytes by the offsets
// ([DefaultMaxReadBytes] by default; --full is not capped), and at least
// about [minSampleRows] rows: a fraction too small to read anything says
// so in its reason and reads that many instead. Before reading, a scan
// states what it will read and how long that takes at the pilot's rate
// ([Options.Preview], [Preview]).
//
// # Uncertainty
//
// Every estimate of a sample carries a 95% interval from the variance of
// the units it drew (Scan.RowsEstimatedLow/High and BytesEstimatedLow/
// High): the rows of a row sample (Horvitz–Thompson), pairs of
// neighbouring groups of a span sample (collapsed strata), the spans of
// each tablet of a position sample and the rows of each range of a row
// budget (ratio estimators, tablets and ranges independent strata); see
// [variance]. A position sample also sums each top-level prefix's own
// variance over its tablets (keyspace.ScanInfo.PrefixVariances, see
// [keyspace.Snapshot.NodeRowsInterval]; a piece of names counts
// [namesSpread] times its split's variance, which its spans understate);
// otherwise
// [keyspace.ScanInfo.RowsInterval] shares the scan's out to a part of the
// range, for a bucket or a prefix. A scan that stopped part-way
// extrapolates its estimates by the share of the bytes it covered and
// keeps what it counted as the low end (the high end unknown).
//
// A row sample also guards against the row it is most likely to miss, an
// oversized one: see [unexplained] for the test and its thresholds. A
// flagged range is re-read in full and its sampled rows replaced
// (Range.Rescanned), while the read cap has room for it: re-reads count
// against [Options.MaxRead] with what the plan reads, and a range the cap
// leaves unread keeps its sample and is marked (Range.Unexplained; the
// report's scan note names it). (A span sample reads such a span in full
// from the start.) A tablet of a position sample whose spans found no
// rows is swept (see [worker.sweepTablet]). So is a flagged one whose
// spans read fewer than [fewSpanRows] rows, or lie on a line of names
// and fall short by less than 64 MB (see [judgeLine]): such a tablet is
// not re-read. Nor is a tablet of pieces one of which was swept and cut
// short (see [sweptCutShort]).
//
// # Delimiters
//
// A scan decides its key delimiters once, from the pilot's rows, the
// first of its range in key order (or --delimiters), and every reader's
// rows are built with them, so that the modes agree on every table.
//
// # Emulators
//
// An emulator's offsets count cell values only: the oversized-row test
// and the weights compare value bytes with value bytes. Its SampleRowKeys
// walks the whole table (about a third of a second per million rows), so
// a span sample starts reading while the samples still stream; and it
// reads with [DefaultEmulatorConcurrency] reads in flight, save for a
// sample inside tablets (an emulator whose SampleRowKeys answers tablets),
// whose short reads keep [DefaultConcurrency] in flight as on Cloud
// Bigtable.
//
// # Stopping
//
// Cancelling the context stops every reader at once; a range that fails
// after the client's retries, or a server that stops answering (see
// [Options.StallTimeout]), stops the scan. Either way [Scan] returns the
// snapshot of what it read, marked incomplete, with an error wrapping
// [ErrIncomplete].
//
// # Progress
//
// [Options.Progress] receives [Progress] events on a goroutine of its
// own, newest first, with a fresh snapshot a few times a second so that a
// heatmap fills in as ranges finish. [Bar] draws them as one terminal
// line.
package sampler
