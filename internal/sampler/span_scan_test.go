package sampler

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
)

// serverHooks change how an in-process emulator answers, from the
// server's side: it can replay the first SampleRowKeys answer it recorded
// (bttest picks its samples at random on every call, so only a replayed
// tablet map lets two scans read the same spans), and delay every
// ReadRows or SampleRowKeys message.
type serverHooks struct {
	replay      atomic.Bool
	readDelay   atomic.Int64 // nanoseconds per ReadRows message
	sampleDelay atomic.Int64 // nanoseconds per SampleRowKeys message
	// onRead, when set, is called as each ReadRows call begins.
	onRead atomic.Pointer[func()]

	mu       sync.Mutex
	recorded []*btpb.SampleRowKeysResponse
	complete bool
}

func (h *serverHooks) option() grpc.ServerOption {
	return grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if f := h.onRead.Load(); f != nil && strings.HasSuffix(info.FullMethod, "/ReadRows") {
			(*f)()
		}
		switch {
		case strings.HasSuffix(info.FullMethod, "/SampleRowKeys") && h.replay.Load():
			h.mu.Lock()
			recorded, complete := h.recorded, h.complete
			h.mu.Unlock()
			if !complete {
				err := handler(srv, recordingSamples{ServerStream: ss, hooks: h})
				h.mu.Lock()
				h.complete = err == nil
				h.mu.Unlock()
				return err
			}
			if err := ss.RecvMsg(new(btpb.SampleRowKeysRequest)); err != nil {
				return err
			}
			for _, resp := range recorded {
				if err := ss.SendMsg(resp); err != nil {
					return err
				}
			}
			return nil
		case strings.HasSuffix(info.FullMethod, "/ReadRows") && h.readDelay.Load() > 0:
			ss = slowStream{ServerStream: ss, delay: time.Duration(h.readDelay.Load())}
		case strings.HasSuffix(info.FullMethod, "/SampleRowKeys") && h.sampleDelay.Load() > 0:
			ss = slowStream{ServerStream: ss, delay: time.Duration(h.sampleDelay.Load())}
		}
		return handler(srv, ss)
	})
}

// recordingSamples keeps a copy of every SampleRowKeys answer sent.
type recordingSamples struct {
	grpc.ServerStream
	hooks *serverHooks
}

func (r recordingSamples) SendMsg(m any) error {
	if resp, ok := m.(*btpb.SampleRowKeysResponse); ok {
		r.hooks.mu.Lock()
		r.hooks.recorded = append(r.hooks.recorded, proto.Clone(resp).(*btpb.SampleRowKeysResponse))
		r.hooks.mu.Unlock()
	}
	return r.ServerStream.SendMsg(m)
}

// spanTable is a table big enough for span sampling: 250,000 rows over
// 20 top-level prefixes of Zipf-like sizes (rows of one to three cells,
// 10 to 200 value bytes), an oversized row of 12 MB and a row whose one
// column has 5,000 versions of a 42-byte reading (the demo's
// 4c410523#memusage).
type spanTable struct {
	addr  string
	hooks *serverHooks
	// rows, valueBytes and prefixRows are the truth a scan estimates.
	rows, valueBytes float64
	prefixRows       map[string]float64
}

const (
	spanTableRows    = 250_000
	spanBigKey       = "p03#0012345x"
	spanBigCells     = 12
	spanVersionsKey  = "p07#0100000x#memusage"
	spanVersions     = 5_000
	spanReadingBytes = 42
)

var spanPrefixes, spanWeights = func() ([]string, []int) {
	var prefixes []string
	var weights []int
	for i := range 20 {
		prefixes = append(prefixes, fmt.Sprintf("p%02d", i))
		weights = append(weights, 120/(i+1))
	}
	return prefixes, weights
}()

var (
	spanTableOnce sync.Once
	spanTableFix  *spanTable
	spanTableErr  error
)

// sharedSpanTable loads the span table once into an emulator that lives
// as long as the test binary (loading it takes seconds under -race).
func sharedSpanTable(t *testing.T) *spanTable {
	t.Helper()
	spanTableOnce.Do(func() { spanTableFix, spanTableErr = loadSpanTable() })
	if spanTableErr != nil {
		t.Fatal(spanTableErr)
	}
	spanTableFix.hooks.replay.Store(false)
	spanTableFix.hooks.readDelay.Store(0)
	spanTableFix.hooks.sampleDelay.Store(0)
	spanTableFix.hooks.onRead.Store(nil)
	return spanTableFix
}

func loadSpanTable() (*spanTable, error) {
	hooks := &serverHooks{}
	srv, err := bttest.NewServer("127.0.0.1:0", grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage), hooks.option())
	if err != nil {
		return nil, err
	}
	fix := &spanTable{addr: srv.Addr, hooks: hooks, prefixRows: make(map[string]float64)}
	rows := prefixedRows(spanTableRows, spanPrefixes, spanWeights)
	versions := testRow{key: spanVersionsKey}
	for i := range spanVersions {
		versions.cells = append(versions.cells, testCell{"m", "memusage", fixtureBase + int64(i)*15_000_000, spanReadingBytes})
	}
	rows = append(rows, versions)
	for _, r := range rows {
		fix.rows++
		fix.prefixRows[r.key[:3]]++
		for _, c := range r.cells {
			fix.valueBytes += float64(c.valueBytes)
		}
	}
	fix.rows++
	fix.prefixRows[spanBigKey[:3]]++
	fix.valueBytes += spanBigCells << 20

	// load reports through a testing.TB; collect its failure instead.
	tb := &loadTB{}
	conn, err := connect.Open(context.Background(), connect.Target{
		Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: srv.Addr,
	})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx := context.Background()
	for _, step := range []func() error{
		func() error { return conn.Admin.CreateTable(ctx, "events") },
		func() error { return conn.Admin.CreateColumnFamily(ctx, "events", "m") },
		func() error { return conn.Admin.CreateColumnFamily(ctx, "events", "meta") },
		func() error { return conn.Admin.CreateColumnFamily(ctx, "events", "blob") },
		func() error {
			return conn.Client.Open("events").Apply(ctx, spanBigKey, bigtableMutation(0, spanBigCells, make([]byte, 1<<20)))
		},
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	load(tb, conn, "events", rows)
	hooks.recorded, hooks.complete = fixedSamples(rows), true
	return fix, tb.err
}

// fixedSamples is a SampleRowKeys answer of the span table that does not
// change from run to run, as bttest's random one does: every 100th row's
// key (about as many as bttest gives) with the bytes before it, the
// oversized row counted, and the table's end. With replay on, a test
// reads the same tablet map in every run (it found the two outlier rows
// in 9 runs of 10 on bttest's random maps).
func fixedSamples(rows []testRow) []*btpb.SampleRowKeysResponse {
	type sized struct {
		key   string
		bytes int64
	}
	all := []sized{{spanBigKey, spanBigCells << 20}}
	for _, r := range rows {
		n := int64(len(r.key))
		for _, c := range r.cells {
			n += int64(c.valueBytes + len(c.qualifier) + len(c.family))
		}
		all = append(all, sized{r.key, n})
	}
	slices.SortFunc(all, func(a, b sized) int { return strings.Compare(a.key, b.key) })
	var out []*btpb.SampleRowKeysResponse
	offset := int64(0)
	for i, r := range all {
		if i > 0 && i%100 == 0 {
			out = append(out, &btpb.SampleRowKeysResponse{RowKey: []byte(r.key), OffsetBytes: offset})
		}
		offset += r.bytes
	}
	return append(out, &btpb.SampleRowKeysResponse{RowKey: nil, OffsetBytes: offset})
}

// loadTB is the little of testing.TB that load uses, outside a test.
type loadTB struct {
	testing.TB
	err error
}

func (l *loadTB) Helper() {}
func (l *loadTB) Fatal(args ...any) {
	l.err = errors.New(fmt.Sprint(args...))
}

func (f *spanTable) open(t *testing.T) *connect.Conn {
	return openEmulator(t, f.addr, "")
}

func TestSpanSampleEstimatesWithinBounds(t *testing.T) {
	fix := sharedSpanTable(t)
	conn := fix.open(t)
	var last Progress
	// 250,000 rows make about 2,500 emulator spans: about 280 groups of 9.
	const fraction = 0.2
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: fraction, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	scan := snap.Scan
	if !scan.Mode.IsSample() || scan.Method != keyspace.MethodSpans || !scan.Complete ||
		scan.Fraction < 0.8*fraction || scan.Fraction > 1.2*fraction {
		t.Fatalf("scan info %+v, want a complete span sample of about 20%%", scan)
	}
	if last.Method != keyspace.MethodSpans || !strings.Contains(last.Reason, "20% sample of key spans (stratified") || last.Done != 1 {
		t.Fatalf("final progress: method %q, reason %q, done %v", last.Method, last.Reason, last.Done)
	}
	// About a fifth of the rows are read, each standing for its group.
	if read := float64(scan.RowsRead); read < 0.15*fix.rows || read > 0.3*fix.rows {
		t.Fatalf("read %v rows of %v", read, fix.rows)
	}
	totals := snap.Totals()
	// The estimate gives each group's value bytes back exactly (the
	// emulator's offsets count value bytes), and its rows to within the
	// spread of rows per byte between spans.
	if rel := math.Abs(totals.ValueBytes-fix.valueBytes) / fix.valueBytes; rel > 1e-6 {
		t.Errorf("value bytes estimated %.0f, true %.0f", totals.ValueBytes, fix.valueBytes)
	}
	if rel := math.Abs(totals.Rows-fix.rows) / fix.rows; rel > 0.02 {
		t.Errorf("rows estimated %.0f, true %.0f (%.1f%% off)", totals.Rows, fix.rows, rel*100)
	}
	worst := 0.0
	for _, prefix := range spanPrefixes {
		path := snap.Root.Lookup(prefix + "#")
		if path == nil {
			t.Fatalf("no node for prefix %q", prefix)
		}
		got := path[len(path)-1].Rows / totals.Rows
		want := fix.prefixRows[prefix] / fix.rows
		worst = max(worst, math.Abs(got-want))
		if math.Abs(got-want) > 0.01 {
			t.Errorf("prefix %s: share %.2f%%, true %.2f%%", prefix, got*100, want*100)
		}
	}
	t.Logf("%d rows read, estimate %.0f of %.0f rows, worst prefix share error %.2f pp", scan.RowsRead, totals.Rows, fix.rows, worst*100)
	// The ranges are whole groups, tile the table and were all read.
	if len(snap.Ranges) < emulatorRangeTarget/2 || len(snap.Ranges) > 2*emulatorRangeTarget {
		t.Errorf("%d ranges", len(snap.Ranges))
	}
	var rangeRows float64
	for i, r := range snap.Ranges {
		if !r.Scanned || (i > 0 && r.Start != snap.Ranges[i-1].End) {
			t.Fatalf("range %d %v–%v: scanned %v", i, r.Start, r.End, r.Scanned)
		}
		rangeRows += r.Rows
	}
	if math.Abs(rangeRows-totals.Rows) > 1e-6*totals.Rows || snap.Ranges[0].Start != "" || snap.Ranges[len(snap.Ranges)-1].End != "" {
		t.Fatalf("ranges hold %.0f rows from %q to %q, the tree %.0f", rangeRows, snap.Ranges[0].Start, snap.Ranges[len(snap.Ranges)-1].End, totals.Rows)
	}
	checkOutliersFound(t, snap)
}

// checkOutliersFound checks that a sampled snapshot of the span table
// found its oversized row and its 5,000-version row.
func checkOutliersFound(t *testing.T, snap *keyspace.Snapshot) {
	t.Helper()
	if len(snap.Largest) == 0 || string(snap.Largest[0].Key) != spanBigKey || snap.Largest[0].Bytes < spanBigCells<<20 {
		t.Fatalf("largest rows %+v, want %q first", snap.Largest[:min(2, len(snap.Largest))], spanBigKey)
	}
	if len(snap.MostVersioned) == 0 || string(snap.MostVersioned[0].Key) != spanVersionsKey || snap.MostVersioned[0].MaxVersions != spanVersions {
		t.Fatalf("most versioned rows %+v, want %q with %d versions", snap.MostVersioned[:min(2, len(snap.MostVersioned))], spanVersionsKey, spanVersions)
	}
	// The tree holds them where their keys are.
	big, versions := snap.Root.Find(spanBigKey), snap.Root.Find(spanVersionsKey)
	if last := big[len(big)-1]; last.MaxRowBytes < spanBigCells<<20 {
		t.Fatalf("node %q holding %q has rows of at most %d bytes", last.Prefix, spanBigKey, last.MaxRowBytes)
	}
	if last := versions[len(versions)-1]; last.MaxVersions != spanVersions {
		t.Fatalf("node %q holding %q has at most %d versions", last.Prefix, spanVersionsKey, last.MaxVersions)
	}
}

func TestSpanSampleFindsOversizedAndManyVersionRows(t *testing.T) {
	fix := sharedSpanTable(t)
	fix.hooks.replay.Store(true) // the same tablet map every run
	conn := fix.open(t)
	// A 20% span sample draws one span in 9; the two rows are found
	// because their spans' bytes stand out, whichever spans are drawn
	// (TestSpanSampleEstimatesWithinBounds checks them with another seed).
	var last Progress
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.2, Seed: 1, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Scan.Method != keyspace.MethodSpans || !strings.Contains(last.Reason, "and 2 spans far above their neighbours' size in full") {
		t.Fatalf("method %q, reason %q", snap.Scan.Method, last.Reason)
	}
	checkOutliersFound(t, snap)
}

func TestSpanSampleIsDeterministic(t *testing.T) {
	fix := sharedSpanTable(t)
	fix.hooks.replay.Store(true) // the same tablet map every time
	conn := fix.open(t)
	now := func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }
	scan := func(seed uint64) *keyspace.Snapshot {
		snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.2, Seed: seed, Concurrency: 1, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Scan.Method != keyspace.MethodSpans {
			t.Fatalf("method %q", snap.Scan.Method)
		}
		return snap
	}
	// (TestSpanPlannerIsDeterministic shows that other seeds draw other
	// spans.)
	a, b := scan(7), scan(7)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two scans with seed 7 differ: %d and %d rows read, %.0f and %.0f estimated",
			a.Scan.RowsRead, b.Scan.RowsRead, a.Totals().Rows, b.Totals().Rows)
	}
}

func TestSpanSampleCancelReturnsPartialSnapshotPromptly(t *testing.T) {
	fix := sharedSpanTable(t)
	fix.hooks.readDelay.Store(int64(time.Millisecond))
	defer fix.hooks.readDelay.Store(0)
	conn := fix.open(t)
	ctx, cancel := context.WithCancel(context.Background())
	progress, reached := waitForRows(300)
	var cancelled atomic.Int64
	go func() {
		<-reached
		cancelled.Store(time.Now().UnixNano())
		cancel()
	}()
	snap, err := Scan(ctx, conn, "events", Options{Fraction: 0.2, Progress: progress})
	returned := time.Now()
	if !errors.Is(err, ErrIncomplete) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrIncomplete and context.Canceled", err)
	}
	if took := returned.Sub(time.Unix(0, cancelled.Load())); took > time.Second {
		t.Fatalf("Scan returned %v after the cancel", took)
	}
	if snap == nil || snap.Scan.Complete || !strings.HasPrefix(snap.Scan.Incomplete, "cancelled after") || snap.Scan.Method != keyspace.MethodSpans {
		t.Fatalf("snapshot scan info %+v", snap.Scan)
	}
	if snap.Scan.RowsRead < 300 || snap.Scan.RowsRead >= spanTableRows/10 {
		t.Fatalf("partial snapshot holds %d rows", snap.Scan.RowsRead)
	}
}

func TestSpanSampleCancelledWhileMappingKeepsWhatItRead(t *testing.T) {
	fix := sharedSpanTable(t)
	// About 2,500 samples at a millisecond each: the tablet map streams
	// for seconds, and reads begin after the first 256 samples. The scan
	// is cancelled a tenth of a second after the first read began.
	fix.hooks.sampleDelay.Store(int64(time.Millisecond))
	defer fix.hooks.sampleDelay.Store(0)
	conn := fix.open(t)
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled atomic.Int64
	var once sync.Once
	firstRead := func() {
		once.Do(func() {
			time.AfterFunc(100*time.Millisecond, func() {
				cancelled.Store(time.Now().UnixNano())
				cancel()
			})
		})
	}
	fix.hooks.onRead.Store(&firstRead)
	defer fix.hooks.onRead.Store(nil)
	snap, err := Scan(ctx, conn, "events", Options{Fraction: 0.2})
	returned := time.Now()
	if !errors.Is(err, ErrIncomplete) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrIncomplete and context.Canceled", err)
	}
	if took := returned.Sub(time.Unix(0, cancelled.Load())); took > time.Second {
		t.Fatalf("Scan returned %v after the cancel", took)
	}
	if snap == nil || snap.Scan.Complete || !strings.HasPrefix(snap.Scan.Incomplete, "cancelled after") ||
		snap.Scan.Method != keyspace.MethodSpans || snap.Scan.RowsRead == 0 || len(snap.Ranges) == 0 {
		t.Fatalf("partial snapshot: %+v, %d ranges", snap.Scan, len(snap.Ranges))
	}
	// The ranges cover the part of the table mapped before the cancel.
	if last := snap.Ranges[len(snap.Ranges)-1]; last.End == "" || snap.Ranges[0].Start != "" {
		t.Fatalf("ranges from %q to %q, want the start of the table to where the map stopped", snap.Ranges[0].Start, last.End)
	}
	t.Logf("cancelled while mapping: %d rows read, ranges up to %v", snap.Scan.RowsRead, snap.Ranges[len(snap.Ranges)-1].End)
}

func TestSmallTableSamplesRowsInstead(t *testing.T) {
	srv := startEmulator(t)
	conn := openEmulator(t, srv.Addr, "")
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(20_000, testPrefixes, testWeights))
	var last Progress
	snap, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.05, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	// 20,000 rows make about 200 emulator spans: 5 groups of 39.
	if snap.Scan.Method != keyspace.MethodRows || snap.Scan.Fraction != 0.05 || last.Method != keyspace.MethodRows ||
		!strings.Contains(last.Reason, "5% sample of rows (RowSampleFilter") || !strings.Contains(last.Reason, "too few key spans") {
		t.Fatalf("method %q fraction %v, reason %q", snap.Scan.Method, snap.Scan.Fraction, last.Reason)
	}
	if read := snap.Scan.RowsRead; read < 600 || read > 1400 {
		t.Fatalf("read %d rows for a 5%% sample of 20,000", read)
	}
}

func TestPlanReadsAreTheScansReads(t *testing.T) {
	srv := startEmulator(t)
	conn := openEmulator(t, srv.Addr, "")
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", prefixedRows(6000, testPrefixes, testWeights))
	read := func(plan *ReadPlan) (rows int) {
		for _, call := range plan.Calls {
			if err := conn.Client.Open("events").ReadRows(context.Background(), call.Rows, func(bigtable.Row) bool {
				rows++
				return true
			}, call.Options...); err != nil {
				t.Fatal(err)
			}
		}
		return rows
	}
	full, err := PlanReads(context.Background(), conn, "events", Options{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if full.Concurrency != DefaultEmulatorConcurrency || len(full.Calls) == 0 {
		t.Fatalf("plan of %d calls, %d in flight", len(full.Calls), full.Concurrency)
	}
	if rows := read(full); rows != 6000 {
		t.Fatalf("the full scan's calls read %d rows of 6000", rows)
	}
	sample, err := PlanReads(context.Background(), conn, "events", Options{Fraction: 0.1, Prefix: "alpha#"})
	if err != nil {
		t.Fatal(err)
	}
	if rows := read(sample); rows == 0 || rows > 600 {
		t.Fatalf("a 10%% row sample of alpha# read %d rows", rows)
	}
}
