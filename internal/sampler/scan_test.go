package sampler

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

func TestFullScanCountsExactly(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	rows := prefixedRows(8000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	want := totalsOf(rows)

	snap, err := Scan(context.Background(), conn, "events", Options{Full: true, Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	scan := snap.Scan
	if !scan.Complete || scan.Incomplete != "" || scan.Mode != keyspace.ModeFull || scan.Fraction != 1 {
		t.Fatalf("scan info = %+v, want a complete full scan", scan)
	}
	totals := snap.Totals()
	if scan.RowsRead != want.rows || scan.CellsRead != want.cells || scan.RowsEstimated != want.rows ||
		int64(totals.Rows) != want.rows || int64(totals.Cells) != want.cells ||
		int64(totals.ValueBytes) != want.valueBytes || int64(totals.Bytes) != want.bytes || scan.BytesEstimated != want.bytes {
		t.Fatalf("counted rows %d/%v, cells %d/%v, values %v, bytes %v/%d; want %+v",
			scan.RowsRead, totals.Rows, scan.CellsRead, totals.Cells, totals.ValueBytes, totals.Bytes, scan.BytesEstimated, want)
	}
	if snap.Source != keyspace.SourceEmulator || snap.RangesAreTablets || snap.Table != "events" ||
		snap.Project != connect.EmulatorProject || snap.Instance != connect.EmulatorInstance ||
		!reflect.DeepEqual(snap.Families, []string{"m", "meta"}) || !scan.ValuesRead || scan.Concurrency != 3 {
		t.Fatalf("snapshot metadata: source %s tablets %v table %q %s/%s families %v values %v concurrency %d",
			snap.Source, snap.RangesAreTablets, snap.Table, snap.Project, snap.Instance, snap.Families, scan.ValuesRead, scan.Concurrency)
	}
	if scan.Started.IsZero() || scan.Duration <= 0 {
		t.Fatalf("started %v, duration %v", scan.Started, scan.Duration)
	}
	var rangeRows, rangeValueBytes float64
	for i, r := range snap.Ranges {
		if !r.Scanned || r.Rescanned {
			t.Fatalf("range %d %v–%v: scanned %v rescanned %v", i, r.Start, r.End, r.Scanned, r.Rescanned)
		}
		if i > 0 && r.Start != snap.Ranges[i-1].End {
			t.Fatalf("range %d starts at %v, previous ends at %v", i, r.Start, snap.Ranges[i-1].End)
		}
		rangeRows += r.Rows
		rangeValueBytes += r.ValueBytes
		// On the emulator a range's sampled bytes are exactly its value bytes.
		if int64(r.ValueBytes) != r.SampledBytes {
			t.Fatalf("range %d %v–%v: sampled %d value bytes, read %v", i, r.Start, r.End, r.SampledBytes, r.ValueBytes)
		}
	}
	if snap.Ranges[0].Start != "" || snap.Ranges[len(snap.Ranges)-1].End != "" || int64(rangeRows) != want.rows || int64(rangeValueBytes) != want.valueBytes {
		t.Fatalf("ranges cover %v–%v with %v rows, %v value bytes", snap.Ranges[0].Start, snap.Ranges[len(snap.Ranges)-1].End, rangeRows, rangeValueBytes)
	}
	if snap.Delimiters != "#" {
		t.Fatalf("delimiters %q, want #", snap.Delimiters)
	}
	for i, prefix := range testPrefixes {
		path := snap.Root.Lookup(prefix + "#")
		if path == nil {
			t.Fatalf("no node for prefix %q", prefix)
		}
		wantRows := 0
		for _, r := range rows {
			if strings.HasPrefix(r.key, prefix+"#") {
				wantRows++
			}
		}
		if got := path[len(path)-1].Rows; int(got) != wantRows {
			t.Fatalf("prefix %d %q: %v rows, want %d", i, prefix, got, wantRows)
		}
	}
}

func TestSampledScanEstimatesWithinBounds(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	rows := prefixedRows(40000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	want := totalsOf(rows)

	const fraction = 0.1
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: fraction})
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Scan.Mode.IsSample() || snap.Scan.Fraction != fraction || !snap.Scan.Complete {
		t.Fatalf("scan info %+v", snap.Scan)
	}
	// About 4000 rows are read: a relative standard error of about 1.5%
	// on counts; 6% is four of them.
	within := func(what string, got float64, want int64) {
		if rel := math.Abs(got-float64(want)) / float64(want); rel > 0.06 {
			t.Errorf("%s estimated %.0f, true %d (%.1f%% off)", what, got, want, rel*100)
		}
	}
	totals := snap.Totals()
	within("rows", totals.Rows, want.rows)
	within("cells", totals.Cells, want.cells)
	within("bytes", totals.Bytes, want.bytes)
	if read := snap.Scan.RowsRead; read < 3000 || read > 5000 {
		t.Errorf("read %d rows for a 10%% sample of %d", read, want.rows)
	}
	for i, prefix := range testPrefixes {
		path := snap.Root.Lookup(prefix + "#")
		share := path[len(path)-1].Rows / totals.Rows
		wantShare := float64(testWeights[i]) / 100
		if math.Abs(share-wantShare) > 0.025 {
			t.Errorf("prefix %q: share %.3f, want about %.2f", prefix, share, wantShare)
		}
	}
	for i, r := range snap.Ranges {
		if r.Rescanned {
			t.Errorf("range %d rescanned: a table of small rows needs no full re-read", i)
		}
	}
}

// bigRowFixture writes ~20k normal rows and one row of more than 100 MB
// in many 1 MB cells, and returns the big row's key.
func bigRowFixture(t *testing.T, conn *connect.Conn) (string, int64) {
	t.Helper()
	rows := prefixedRows(20000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta", "blob")
	load(t, conn, "events", rows)
	const bigKey = "gamma#0012345x"
	const cells, cellBytes = 110, 1 << 20
	tbl := conn.Client.Open("events")
	value := make([]byte, cellBytes)
	for from := 0; from < cells; from += 10 {
		mut := bigtableMutation(from, min(from+10, cells), value)
		if err := tbl.Apply(context.Background(), bigKey, mut); err != nil {
			t.Fatal(err)
		}
	}
	return bigKey, cells * cellBytes
}

func TestSampledScanFindsOversizedRow(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	bigKey, bigBytes := bigRowFixture(t, conn)

	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Largest) == 0 || string(snap.Largest[0].Key) != bigKey || snap.Largest[0].Bytes < bigBytes {
		t.Fatalf("largest rows %+v, want %q first with more than %d bytes", snap.Largest[:min(len(snap.Largest), 2)], bigKey, bigBytes)
	}
	rescanned := 0
	for _, r := range snap.Ranges {
		if r.Rescanned {
			rescanned++
			if !keyspace.InRange(bigKey, string(r.Start), string(r.End)) {
				t.Errorf("range %v–%v rescanned but does not hold the big row", r.Start, r.End)
			}
			if r.Rows < 1 || r.MaxRowBytes < bigBytes {
				t.Errorf("rescanned range has %v rows, largest %d bytes", r.Rows, r.MaxRowBytes)
			}
		}
	}
	switch {
	case rescanned == 1:
	case rescanned == 0 && snap.Largest[0].Bytes >= bigBytes && snap.Scan.RowsRead > 0:
		// The 0.1% sample picked the big row itself (p = 0.001): nothing
		// was unexplained, and the row was found anyway.
		t.Logf("the sample caught the big row itself; no rescan needed")
	default:
		t.Fatalf("%d ranges rescanned, want 1", rescanned)
	}
}

func TestOverflowedRangeGetsOutlierPass(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	bigKey, bigBytes := bigRowFixture(t, conn)

	// Hold back at most one row: a flagged range that sampled any row has
	// already streamed it, so it can only get the outlier pass, which adds
	// the big row (weight 1) to the sampled rows (weight 5). When the 20%
	// sample catches the big row itself nothing is flagged: try again.
	// Measured over 60 runs, 24 of 84 attempts flagged nothing (the
	// emulator's samples are drawn afresh each scan too), so five attempts
	// all failed about once in 400 runs (CI saw it); twenty fail about
	// once in 10^10.
	for attempt := 0; attempt < 20; attempt++ {
		snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.2, heldLimit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Largest) == 0 || string(snap.Largest[0].Key) != bigKey || snap.Largest[0].Bytes < bigBytes {
			t.Fatalf("largest rows %+v, want %q first", snap.Largest[:min(len(snap.Largest), 2)], bigKey)
		}
		for _, r := range snap.Ranges {
			if !r.Rescanned {
				continue
			}
			if !keyspace.InRange(bigKey, string(r.Start), string(r.End)) {
				t.Fatalf("range %v–%v rescanned but does not hold the big row", r.Start, r.End)
			}
			if sampled := r.Rows - 1; sampled <= 0 || math.Mod(sampled, 5) != 0 {
				t.Fatalf("range %v–%v has %v rows: want sampled rows of weight 5 plus the big row", r.Start, r.End, r.Rows)
			}
			return
		}
	}
	t.Fatal("no outlier pass in twenty scans")
}

func TestPrefixAndKeyRangeRestrictTheScan(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	rows := prefixedRows(6000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	count := func(start, end string) int64 {
		n := int64(0)
		for _, r := range rows {
			if keyspace.InRange(r.key, start, end) {
				n++
			}
		}
		return n
	}
	for _, tc := range []struct {
		name       string
		opts       Options
		start, end string
	}{
		{"prefix", Options{Prefix: "gamma#", Full: true}, "gamma#", "gamma$"},
		{"start-end", Options{Start: "beta#0001000", End: "delta#0004000", Full: true}, "beta#0001000", "delta#0004000"},
		{"start-only", Options{Start: "delta#", Full: true}, "delta#", ""},
		{"end-only", Options{End: "beta#0002000", Full: true}, "", "beta#0002000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap, err := Scan(context.Background(), conn, "events", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if want := count(tc.start, tc.end); snap.Scan.RowsRead != want || int64(snap.Totals().Rows) != want {
				t.Fatalf("read %d rows, want %d", snap.Scan.RowsRead, want)
			}
			if string(snap.Scan.Start) != tc.start || string(snap.Scan.End) != tc.end {
				t.Fatalf("scan bounds %v–%v, want %q–%q", snap.Scan.Start, snap.Scan.End, tc.start, tc.end)
			}
			first, last := snap.Ranges[0], snap.Ranges[len(snap.Ranges)-1]
			if string(first.Start) != tc.start || string(last.End) != tc.end {
				t.Fatalf("tablet map covers %v–%v, want %q–%q", first.Start, last.End, tc.start, tc.end)
			}
			if tc.opts.Prefix != "" && string(snap.Scan.Prefix) != tc.opts.Prefix {
				t.Fatalf("scan prefix %v", snap.Scan.Prefix)
			}
		})
	}
}

func TestSnapshotSavesAndLoadsBackEqual(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	rows := prefixedRows(5000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.btviz")
	if err := keyspace.Save(path, snap); err != nil {
		t.Fatal(err)
	}
	loaded, err := keyspace.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normalized(snap), normalized(loaded)) {
		t.Fatalf("snapshot changed in a save/load round trip:\nsaved  %+v\nloaded %+v", snap.Scan, loaded.Scan)
	}
}

// normalized replaces empty slices by nil, which JSON cannot tell apart.
func normalized(s *keyspace.Snapshot) *keyspace.Snapshot {
	c := s.Clone()
	c.Root.Walk(func(n *keyspace.Node) bool {
		if len(n.Top) == 0 {
			n.Top = nil
		}
		if len(n.Writes.Counts) == 0 {
			n.Writes.Counts = nil
		}
		if len(n.FamilyMask) == 0 {
			n.FamilyMask = nil
		}
		return true
	})
	for i := range c.Ranges {
		r := &c.Ranges[i]
		if len(r.Writes.Counts) == 0 {
			r.Writes.Counts = nil
		}
		if len(r.FamilyMask) == 0 {
			r.FamilyMask = nil
		}
	}
	return c
}

func TestMissingTableNamesWhatExists(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "events", "m")
	snap, err := Scan(context.Background(), conn, "nope", Options{})
	if snap != nil || !errors.Is(err, connect.ErrTableNotFound) || !strings.Contains(err.Error(), "events") {
		t.Fatalf("Scan(missing) = %v, %v", snap, err)
	}
	if _, err := TableSizes(context.Background(), conn, []string{"nope"}); !errors.Is(err, connect.ErrTableNotFound) {
		t.Fatalf("TableSizes(missing): %v", err)
	}
}

func TestBadOptionsAreRefused(t *testing.T) {
	for _, opts := range []Options{
		{Full: true, Fraction: 0.1},
		{Fraction: 1.5},
		{Fraction: -0.1},
		{MaxRows: 10, Full: true},
		{MaxRows: -1},
		{Prefix: "a", Start: "b"},
		{Start: "b", End: "a"},
		{Concurrency: -2},
	} {
		if _, err := Scan(context.Background(), nil, "t", opts); !errors.Is(err, ErrBadOptions) {
			t.Errorf("Scan(%+v) = %v, want ErrBadOptions", opts, err)
		}
	}
}

func TestDefaultModeReadsSmallTableInFull(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(3000, testPrefixes, testWeights))
	var last Progress
	snap, err := Scan(context.Background(), conn, "events", Options{Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Scan.Mode != keyspace.ModeFull || snap.Scan.RowsRead != 3000 || !last.Final || last.Mode != keyspace.ModeFull ||
		!strings.Contains(last.Reason, "small enough") {
		t.Fatalf("mode %s, read %d, last progress %+v", snap.Scan.Mode, snap.Scan.RowsRead, last)
	}
}

func TestChooseMode(t *testing.T) {
	const gb = 1_000_000_000
	for _, tc := range []struct {
		name         string
		opts         Options
		bytes, rows  int64
		mode         keyspace.Mode
		fraction     float64
		reasonSubstr string
	}{
		{"small table", Options{}, 100 << 20, -1, keyspace.ModeFull, 1, "small enough"},
		{"large table", Options{}, 20 * gb, -1, keyspace.ModeSample, 0.05, "20 GB"},
		{"big table", Options{}, 1000 * gb, -1, keyspace.ModeSample, minDefaultFraction, "over the 1 GB"},
		{"huge table", Options{}, 10000 * gb, -1, keyspace.ModeSample, 2.0 / 10000, "over the 2 GB read cap"},
		{"huge table, lower cap", Options{MaxRead: gb / 2}, 10000 * gb, -1, keyspace.ModeSample, 0.5 / 10000, "over the 500 MB read cap"},
		{"many small rows on the emulator", Options{}, 40 << 20, 5_000_000, keyspace.ModeSample, 0.4, "5M rows"},
		{"few rows on the emulator", Options{}, 40 << 20, 1_000_000, keyspace.ModeFull, 1, "small enough"},
		{"full asked", Options{Full: true}, 20 * gb, -1, keyspace.ModeFull, 1, "--full"},
		{"sample asked", Options{Fraction: 0.2}, 1, -1, keyspace.ModeSample, 0.2, "20%"},
		{"sample 1", Options{Fraction: 1}, 20 * gb, -1, keyspace.ModeFull, 1, "--sample 1"},
		{"budget", Options{MaxRows: 1000}, 20 * gb, -1, keyspace.ModeSample, 0, "1000 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := chooseMode(tc.opts, tc.bytes, tc.rows)
			if got.mode != tc.mode || math.Abs(got.fraction-tc.fraction) > 1e-9 || !strings.Contains(got.reason, tc.reasonSubstr) {
				t.Fatalf("chooseMode = %+v, want %s at %v with %q", got, tc.mode, tc.fraction, tc.reasonSubstr)
			}
		})
	}
}

func TestMaxRowsSpreadsTheBudget(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	rows := prefixedRows(30000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	snap, err := Scan(context.Background(), conn, "events", Options{MaxRows: 3000})
	if err != nil {
		t.Fatal(err)
	}
	read := snap.Scan.RowsRead
	if read < 2500 || read > 3000+int64(len(snap.Ranges)) {
		t.Fatalf("read %d rows for a budget of 3000", read)
	}
	// Each range reads its first rows only, so the estimate rests on the
	// bytes per row read; this fixture's row sizes vary with the key, so
	// allow 15%.
	if est := snap.Totals().Rows; math.Abs(est-30000)/30000 > 0.15 {
		t.Fatalf("estimated %.0f rows, want about 30000", est)
	}
	if snap.Scan.MaxRows != 3000 || snap.Scan.Fraction <= 0.05 || snap.Scan.Fraction > 0.2 {
		t.Fatalf("scan info %+v", snap.Scan)
	}
}

func TestProgressReachesASlowReceiverWithoutBlocking(t *testing.T) {
	conn := eventsTable(t, 20000)
	var events []Progress
	done := make(chan struct{})
	slow := func(p Progress) {
		events = append(events, p)
		time.Sleep(30 * time.Millisecond)
		if p.Final {
			close(done)
		}
	}
	snap, err := Scan(context.Background(), conn, "events", Options{Full: true, Progress: slow, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("no final event")
	}
	if len(events) == 0 {
		t.Fatal("no progress events")
	}
	final := events[len(events)-1]
	if !final.Final || final.Snapshot != snap || final.RangesDone != final.RangesTotal || final.RowsRead != 20000 || final.Done != 1 {
		t.Fatalf("final event %+v", final)
	}
	for i := 1; i < len(events); i++ {
		if events[i].RowsRead < events[i-1].RowsRead || events[i-1].Final {
			t.Fatalf("events out of order at %d", i)
		}
	}
}

// A fraction too small to read anything reads a minimum instead, and
// says so, rather than report an empty table as complete.
func TestTinyFractionReadsAMinimumAndSaysSo(t *testing.T) {
	conn := eventsTable(t, 20000)
	var reason string
	var preview Preview
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 1e-9, Progress: func(p Progress) {
		if p.Reason != "" {
			reason = p.Reason
		}
	}, Preview: func(p Preview) { preview = p }})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Scan.RowsRead < minSampleRows/2 || snap.Scan.RowsEstimated < 15000 || snap.Scan.RowsEstimated > 25000 {
		t.Fatalf("read %d rows, estimated %d of 20000", snap.Scan.RowsRead, snap.Scan.RowsEstimated)
	}
	if !strings.Contains(reason, "would read about 0; reading about 200, the smallest sample btviz reads") {
		t.Fatalf("reason %q", reason)
	}
	// The note is what a command prints, on any terminal or none. The
	// range's size comes from the emulator's sampled row keys, so it is
	// an estimate: anything from 15K to 25K rows is right.
	m := regexp.MustCompile(`^--sample 1e-09 would read about 0 of the range's about (\d+(?:\.\d)?)K rows; reading about 200 instead, the smallest sample btviz reads`).FindStringSubmatch(preview.Note)
	if m == nil {
		t.Fatalf("note %q", preview.Note)
	}
	if k, _ := strconv.ParseFloat(m[1], 64); k < 15 || k > 25 {
		t.Fatalf("note %q: the range holds 20K rows", preview.Note)
	}
}

// TestMaxRowsBelowARowARangeSaysWhyItReadsMore: --max-rows smaller than
// the key ranges reads a row from each (so that each is estimated), and
// says so rather than reading 13 times what was asked without a word.
func TestMaxRowsBelowARowARangeSaysWhyItReadsMore(t *testing.T) {
	conn := eventsTable(t, 20000)
	var preview Preview
	snap, err := Scan(context.Background(), conn, "events", Options{MaxRows: 10, Preview: func(p Preview) { preview = p }})
	if err != nil {
		t.Fatal(err)
	}
	ranges := len(snap.Ranges)
	if ranges <= 10 || snap.Scan.RowsRead <= 10 || snap.Scan.RowsRead > int64(ranges) {
		t.Fatalf("read %d rows of %d ranges", snap.Scan.RowsRead, ranges)
	}
	want := fmt.Sprintf("--max-rows 10 reads about %d rows: at least one from each of the table's %d key ranges, so that every range is estimated", ranges, ranges)
	if preview.Note != want || preview.ReadRows != int64(ranges) || !strings.Contains(preview.Reason, "at least one row from each") {
		t.Fatalf("preview %+v, want the note %q", preview, want)
	}
	if _, err := Scan(context.Background(), conn, "events", Options{MaxRows: 3000, Preview: func(p Preview) { preview = p }}); err != nil || preview.Note != "" {
		t.Fatalf("a budget above a row a range: note %q, %v", preview.Note, err)
	}
}

// eventsTable starts an emulator holding table "events" of n
// prefixedRows and connects to it.
func eventsTable(t *testing.T, n int) *connect.Conn {
	t.Helper()
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(n, testPrefixes, testWeights))
	return conn
}

// TestEmulatorSamplesOfTwoDatasetsAreNotTablets: a table whose first
// dataset holds rows of 11 value bytes and whose second, after it, rows
// of 300: the pilot reads the first rows only, and by their size an
// emulator's samples of a hundred of the second's rows weigh what 2,700
// would, so the map was taken for tablets about one scan in three
// (newcomer-app: tablet-skew raised on an emulator). Every scan of five
// must take them for samples; the first dataset's keys sort first, as
// its 13-digit times do in newcomer-app.
//
// Counting the median span's keys alone still took them for tablets in 1
// scan of 400 (and 1 of 600): the median was the span that holds the end
// of the small rows and the start of the large ones, 138 to 200 rows. The
// median's two neighbours by bytes now confirm it (0 of 2,000 scans).
// Five scans cannot catch that once in 400, so the check is also given
// such spans: a median of 260 rows between neighbours of 100 is samples,
// three spans of 300 rows are tablets.
func TestEmulatorSamplesOfTwoDatasetsAreNotTablets(t *testing.T) {
	srv := emutest.Start(t)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	var rows []testRow
	for i := range 1_000 {
		rows = append(rows, testRow{key: fmt.Sprintf("%013d#sensor%02d", 1_793_404_823_317+int64(i)*997, i%10),
			cells: []testCell{{family: "r", qualifier: "value", timestamp: 1_000, valueBytes: 11}}})
	}
	for i := range 6_000 {
		rows = append(rows, testRow{key: fmt.Sprintf("user#u%04d#item#%03d", i/10, i%10),
			cells: []testCell{{family: "r", qualifier: "value", timestamp: 1_000, valueBytes: 300}}})
	}
	createTable(t, conn, "two", "r")
	load(t, conn, "two", rows)
	check := &scanner{table: conn.Client.Open("two")}
	sensor := func(i int) string { return rows[i].key }
	user := func(u int) string { return fmt.Sprintf("user#u%04d#", u) }
	straddle := []span{
		{start: user(10), end: user(20), bytes: 20_000},
		{start: user(20), end: user(30), bytes: 21_000},
		{start: sensor(750), end: user(1), bytes: 25_000}, // 250 small rows and 10 large
		{start: user(30), end: user(40), bytes: 30_000},
		{start: user(40), end: user(50), bytes: 31_000},
	}
	if check.medianSpanHoldsTablet(context.Background(), straddle) {
		t.Errorf("a median span of 260 rows between spans of 100 was taken for a tablet")
	}
	tablets := []span{{start: user(100), end: user(130), bytes: 90_000}, {start: user(130), end: user(160), bytes: 91_000}, {start: user(160), end: user(190), bytes: 92_000}}
	if !check.medianSpanHoldsTablet(context.Background(), tablets) {
		t.Errorf("three spans of 300 rows were not taken for tablets")
	}
	for i := range 5 {
		snap, err := Scan(context.Background(), conn, "two", Options{Full: true})
		if err != nil {
			t.Fatal(err)
		}
		if snap.RangesAreTablets {
			t.Fatalf("scan %d took the emulator's %d samples for tablets", i+1, len(snap.Ranges))
		}
	}
}
