package sampler

// A sampled scan can miss an oversized row: at a 1% sample a single
// 200 MB row is skipped 99 times in 100. SampleRowKeys' offsets cannot
// miss it, so each range's sampled bytes (the estimate E) are compared
// with the bytes the sample saw, scaled by 1/fraction (S), in the same
// units: logical bytes on Cloud Bigtable, value bytes on an emulator
// (whose offsets count values only). A range whose E is both
// rescanRatio times S and rescanMinUnexplainedBytes above it is re-read
// at full resolution and its sampled rows are replaced by the full read.
//
// The test is monotone: S only grows as a range is read, so once it
// fails it stays failed. Until then the range's rows are held back
// (they may be replaced); from then on they stream to the builder. A
// range whose E is under rescanMinUnexplainedBytes never holds anything.
const (
	// rescanRatio leaves room for how far Cloud Bigtable's offsets (stored
	// bytes: compressed, and counting versions and deletions not yet
	// compacted away) stray from logical bytes, a factor of two or three
	// either way; a range four times larger than its sample explains has
	// something the sample did not see.
	rescanRatio = 4
	// rescanMinUnexplainedBytes is well below the 100 MB large-row limit,
	// so a row that limit flags always trips it, and far above the
	// sampling noise of a normal range (a range of 64 MB of 1 KB rows
	// sampled at 1% sees ~650 rows: ±4%, a few MB), so normal ranges are
	// not read twice.
	rescanMinUnexplainedBytes = 64 << 20
	// maxHeldBytes bounds the memory one range may hold back while the
	// test is still open (a huge tablet early in its read). Past it the
	// rows stream on, and if the test still fails at the end the range
	// gets an outlier pass instead of a replacement: a full read that adds
	// only rows of at least outlierRowBytes the sample did not see.
	maxHeldBytes = 16 << 20
	// outlierRowBytes is the smallest row an outlier pass adds: a row that
	// size is what the test is looking for, and smaller rows are what the
	// sample already accounts for.
	outlierRowBytes = 8 << 20
)

// rescanTableShare lowers the unexplained-bytes floor for small tables:
// a range is also re-read when what its sample cannot explain is a
// twentieth of the table. On a table of a few MB a 100 KB row (a row
// rewritten 5,000 times, say) is such an outlier, and re-reading its
// range costs next to nothing; only ranges holding that much of the
// table qualify, so at most twenty ranges' worth is ever re-read.
const rescanTableShare = 0.05

// rescanFloor returns the unexplained bytes that trigger a re-read in a
// table whose ranges hold totalBytes: rescanMinUnexplainedBytes, or a
// rescanTableShare of a smaller table.
func rescanFloor(totalBytes int64) int64 {
	return min(rescanMinUnexplainedBytes, int64(rescanTableShare*float64(totalBytes)))
}

// unexplained reports whether a range whose offsets give it estimate
// bytes holds far more than the scaled sample saw: rescanRatio times
// more, and more than floor bytes more (see [rescanFloor]).
func unexplained(estimate int64, scaledSeen float64, floor int64) bool {
	e := float64(estimate)
	return e > rescanRatio*scaledSeen && e-scaledSeen > float64(max(floor, 1))
}

// mayReread reserves bytes of the read cap ([Options.MaxRead], or
// [DefaultMaxReadBytes]) for a re-read of a range the sample cannot
// explain, and reports whether they fit beside what the plan reads and
// the re-reads before it. A range left unread keeps its sample and is
// marked (Range.Unexplained), so the report says where an oversized row
// may hide. --full reads everything and re-reads nothing.
func (s *scanner) mayReread(bytes int64) bool {
	room := maxRead(s.opts) - s.plan.readBytes
	for {
		used := s.rereadBytes.Load()
		if used+bytes > room {
			return false
		}
		if s.rereadBytes.CompareAndSwap(used, used+bytes) {
			return true
		}
	}
}

// budgetWeight is the weight of each row of a MaxRows range that read
// rows of its budget limit: the range is estimated to hold rows × E/seen
// rows (its sampled bytes over the bytes of the rows read, in the same
// units), so each row read stands for E/seen rows. A range that returned
// fewer rows than its budget was read in full (weight 1); without bytes
// to compare (values stripped, or empty values) the weight stays 1 and
// the counts are lower bounds.
func budgetWeight(rows, limit, estimate, seen int64) float64 {
	if rows < limit || seen <= 0 || estimate <= seen {
		return 1
	}
	return float64(estimate) / float64(seen)
}
