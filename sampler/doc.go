// Package sampler reads a Bigtable table's key space into a
// [keyspace.Snapshot]: the tablet map from SampleRowKeys (with byte
// offsets, through the data API's raw stub), then the rows of the
// requested key range, split at the tablet boundaries and read with
// [Options.Concurrency] reads in flight through the official client,
// aggregated by one [keyspace.Builder] on one goroutine. Memory grows with
// the builder's buckets, not with the rows read.
//
// # Modes and estimators
//
//   - Full reads every row; every count is exact.
//   - Sample (Options.Fraction F) reads about F of the rows, in one of two
//     ways; [keyspace.ScanInfo].Method and [Progress].Method say which,
//     [Progress].Reason says so in words.
//   - Spans ([keyspace.MethodSpans]): whole key spans between
//     SampleRowKeys samples, one drawn by size from each group of
//     consecutive spans, each of its rows standing for the group's bytes
//     over the span's (Hansen–Hurwitz: unbiased, exact for the sampled
//     bytes), plus every span far larger than its neighbours and every
//     span holding a top-level prefix boundary, read with weight 1. The
//     server reads only the spans chosen, so a 5% sample costs about 5%
//     of a full scan plus SampleRowKeys; see [spanPlanner] for the
//     estimator, the groups, and why prefix shares and oversized rows
//     come out right. It needs spans finer than the snapshot's ranges
//     and at least [minSpanGroups] groups: an emulator's table of a
//     million rows or more at 5%.
//   - Rows ([keyspace.MethodRows]), otherwise: the server keeps each row
//     with probability F (RowSampleFilter); each row read stands for 1/F
//     rows (Horvitz–Thompson), so counts, bytes and histograms are
//     unbiased with a relative error of about 1/sqrt(rows read) per
//     bucket. The server still reads every row of the ranges asked for.
//   - MaxRows N spreads a budget of N rows over the ranges in proportion
//     to their sampled bytes and reads the first rows of each range
//     (LimitRows). A range that ends within its budget was read in full
//     (weight 1); otherwise each row stands for E/seen rows, E the range's
//     sampled bytes and seen the bytes of the rows read in the same units
//     (a ratio estimator that assumes the rows read are typical of their
//     range in size).
//   - With no mode given, the scan reads every row of a range under
//     [DefaultFullScanBytes] and (on an emulator, whose samples are about
//     1% of rows) [DefaultFullScanRows] rows, and samples a larger one at
//     the fraction that reads about that much. [Progress].Reason and the
//     snapshot's Scan.Mode and Scan.Fraction say which.
//
// A row sample also guards against the row it is most likely to miss, an
// oversized one: see [unexplained] for the test and its thresholds. A
// flagged range is re-read in full and its sampled rows replaced
// (Range.Rescanned). (A span sample reads such a span in full from the
// start.)
//
// # Emulators
//
// On an emulator SampleRowKeys returns about 1% of rows picked at random,
// not tablets, and its offsets count cell values only: the snapshot says
// so (RangesAreTablets false), its ranges are merged to a few hundred,
// and the oversized-row test compares value bytes with value bytes. Its
// SampleRowKeys walks the whole table (about a third of a second per
// million rows), so a span sample starts reading while the samples still
// stream; and it reads with [DefaultEmulatorConcurrency] reads in flight.
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
// heatmap fills in as ranges finish. [Feed] turns them into a pull API
// for a Bubble Tea command; [Bar] draws them as one terminal line.
package sampler
