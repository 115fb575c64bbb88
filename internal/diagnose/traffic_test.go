package diagnose

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

var trafficStart = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// record builds one table's recording from the ops gen sends.
func record(t *testing.T, gen func(add func(op keyspace.Op))) *keyspace.Snapshot {
	t.Helper()
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: trafficStart, Delimiters: "#"}, keyspace.Options{})
	var last time.Time
	gen(func(op keyspace.Op) {
		op.Table = "t"
		r.Add(&op)
		last = op.Time
	})
	return r.Snapshot("t", last)
}

func at(ms int) time.Time { return trafficStart.Add(time.Duration(ms) * time.Millisecond) }

func read(ms int, key string) keyspace.Op {
	return keyspace.Op{Time: at(ms), Method: keyspace.MethodReadRows, Keys: []keyspace.Key{keyspace.Key(key)},
		RowsRead: []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: 100}}}
}

func write(ms int, method, key string) keyspace.Op {
	return keyspace.Op{Time: at(ms), Method: method, Keys: []keyspace.Key{keyspace.Key(key)},
		RowsWritten: []keyspace.RowIO{{Key: keyspace.Key(key), Bytes: 40}}}
}

func kinds(findings []Finding) map[Kind][]Finding {
	out := map[Kind][]Finding{}
	for _, f := range findings {
		out[f.Kind] = append(out[f.Kind], f)
	}
	return out
}

func TestReadHotspotOnOneUser(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 6000 {
			user := fmt.Sprintf("u%03d", r.IntN(200))
			if i%2 == 0 {
				user = "mila"
			}
			add(read(i*10, fmt.Sprintf("user#%s#p%03d", user, r.IntN(300))))
			add(write(i*10, keyspace.MethodMutateRow, fmt.Sprintf("user#u%03d#p%03d", r.IntN(200), r.IntN(300))))
		}
	})
	got := kinds(Diagnose(snap))
	hot := got[KindReadHotspot]
	if len(hot) != 1 || hot[0].Prefix != "user#mila#" || hot[0].Evidence["read_share"] < 0.45 {
		t.Fatalf("read hotspots %+v, want user#mila# with half the reads", hot)
	}
	if len(got[KindWriteHotspot])+len(got[KindHotRow])+len(got[KindSequentialWrites]) > 0 {
		t.Fatalf("even writes raised %+v", got)
	}
	if len(got[KindScanNote]) != 1 {
		t.Fatalf("notes %+v", got[KindScanNote])
	}
}

// TestHotCounterRow: a counter every request increments with
// ReadModifyWriteRow, which answers with the row it changed (as the
// recording proxy records it), is one hot row by writes, with the
// advice for a counter; its answers are not reads.
func TestHotCounterRow(t *testing.T) {
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 3000 {
			increment := write(i*10, keyspace.MethodReadModifyWriteRow, "stats#global#page_views")
			increment.RowsRead = []keyspace.RowIO{{Key: "stats#global#page_views", Bytes: 60}}
			add(increment)
			add(write(i*10, keyspace.MethodMutateRow, fmt.Sprintf("event#%05d", i)))
		}
	})
	got := kinds(Diagnose(snap))
	rows := got[KindHotRow]
	if len(rows) != 1 || rows[0].Prefix != "stats#global#page_views" || rows[0].Evidence["write_share"] < 0.45 {
		t.Fatalf("hot rows %+v, want one: the counter by writes", rows)
	}
	if !strings.Contains(rows[0].Advice, "counter as N shard rows") {
		t.Errorf("the counter's advice: %s", rows[0].Advice)
	}
	if len(got[KindReadHotspot]) > 0 || snap.Root.Traffic.RowsRead != 0 {
		t.Fatalf("increments counted as reads: %v rows read, %+v", snap.Root.Traffic.RowsRead, got[KindReadHotspot])
	}
	if len(got[KindWriteHotspot]) > 0 {
		t.Fatalf("the counter row's prefix is reported as a range too: %+v", got[KindWriteHotspot])
	}
}

func TestTimestampFirstWritesMarch(t *testing.T) {
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 4000 {
			ms := i * 30
			add(write(ms, keyspace.MethodMutateRows, fmt.Sprintf("%d#machine%02d", at(ms).UnixMilli(), i%40)))
		}
	})
	got := kinds(Diagnose(snap))
	if len(got[KindSequentialWrites]) != 1 || got[KindSequentialWrites][0].Evidence["rank_correlation"] < 0.9 {
		t.Fatalf("sequential writes %+v", got[KindSequentialWrites])
	}
	// Entity-first keys written at random are not sequential.
	r := rand.New(rand.NewPCG(3, 4))
	even := record(t, func(add func(keyspace.Op)) {
		for i := range 4000 {
			ms := i * 30
			add(write(ms, keyspace.MethodMutateRows, fmt.Sprintf("machine%02d#%d", r.IntN(40), at(ms).UnixMilli())))
		}
	})
	if got := kinds(Diagnose(even)); len(got[KindSequentialWrites]) > 0 {
		t.Fatalf("entity-first writes raised %+v", got[KindSequentialWrites])
	}
}

func TestRepeatedFullScans(t *testing.T) {
	snap := record(t, func(add func(keyspace.Op)) {
		for s := range 5 {
			op := keyspace.Op{Time: at(s * 1000), Method: keyspace.MethodReadRows, Ranges: []keyspace.KeyRange{{}}}
			for i := range 500 {
				op.RowsRead = append(op.RowsRead, keyspace.RowIO{Key: keyspace.Key(fmt.Sprintf("k#%04d", i)), Bytes: 50})
			}
			add(op)
		}
	})
	got := kinds(Diagnose(snap))
	if len(got[KindHeavyScan]) != 1 || got[KindHeavyScan][0].Evidence["scans"] != 5 {
		t.Fatalf("heavy scans %+v", got[KindHeavyScan])
	}
}

// TestJoinedReadHotspotAndABigTenant: joined with a scan, a celebrity
// among many users is a read hotspot by the sibling rule, and a tenant
// that holds half the rows and takes half the reads is not.
func TestJoinedReadHotspotAndABigTenant(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	storage := func(rows map[string]int) *keyspace.Snapshot {
		b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceEmulator, Table: "t"}, keyspace.Options{Delimiters: "#"})
		var keys []string
		for prefix, n := range rows {
			for i := range n {
				keys = append(keys, fmt.Sprintf("%s#r%04d", prefix, i))
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.Add(&keyspace.Row{Key: k, Weight: 1, Cells: []keyspace.Cell{{Family: "f", Timestamp: trafficStart.UnixMicro(), ValueBytes: 10}}})
		}
		return b.Snapshot()
	}
	users := map[string]int{"user#mila": 400}
	for i := range 40 {
		users[fmt.Sprintf("user#u%02d", i)] = 20
	}
	celebrity := record(t, func(add func(keyspace.Op)) {
		for i := range 4000 {
			user := fmt.Sprintf("u%02d", r.IntN(40))
			if i%5 != 0 {
				user = "mila"
			}
			add(read(i*10, fmt.Sprintf("user#%s#r%04d", user, r.IntN(20))))
		}
	})
	joined, err := keyspace.Join(storage(users), celebrity)
	if err != nil {
		t.Fatal(err)
	}
	if hot := kinds(Diagnose(joined))[KindReadHotspot]; len(hot) != 1 || hot[0].Prefix != "user#mila#" {
		t.Fatalf("joined read hotspots %+v, want user#mila#", hot)
	}
	tenants := map[string]int{"acme": 1000, "globex": 300, "initech": 300, "umbrella": 400}
	proportional := record(t, func(add func(keyspace.Op)) {
		for i := range 4000 {
			x := r.IntN(2000)
			tenant := "acme"
			switch {
			case x >= 1700:
				tenant = "umbrella"
			case x >= 1400:
				tenant = "initech"
			case x >= 1100:
				tenant = "globex"
			}
			add(read(i*10, fmt.Sprintf("%s#r%04d", tenant, r.IntN(300))))
		}
	})
	joined, err = keyspace.Join(storage(tenants), proportional)
	if err != nil {
		t.Fatal(err)
	}
	if hot := kinds(Diagnose(joined))[KindReadHotspot]; len(hot) != 0 {
		t.Fatalf("a big tenant read in proportion is reported: %+v", hot)
	}
}

// TestHotRowsInAReadHotspotAreOneFinding: a celebrity's five posts, each
// read in more than a tenth of all reads, are named in the read-hotspot
// of the celebrity's range, not five hot-row findings beside it; a hot
// row outside any hotspot (a config row every server polls) stays a
// finding of its own.
func TestHotRowsInAReadHotspotAreOneFinding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	snap := record(t, func(add func(keyspace.Op)) {
		for i := range 8000 {
			var key string
			switch {
			case i%10 < 7:
				key = fmt.Sprintf("user#mila#p%03d", i%5) // 70%: five posts, 14% each
			case i%10 == 7:
				key = "config#flags" // 10%+: the polled row
			default:
				key = fmt.Sprintf("user#u%03d#p%03d", r.IntN(200), r.IntN(300))
			}
			add(read(i*10, key))
		}
	})
	got := kinds(Diagnose(snap))
	hot := got[KindReadHotspot]
	if len(hot) != 1 || hot[0].Prefix != "user#mila#" {
		t.Fatalf("read hotspots %+v, want the celebrity's range", hot)
	}
	if hot[0].Evidence["hot_rows"] != 5 || !strings.Contains(hot[0].Summary, "in it, 5 rows each take at least 10% of all reads: user#mila#p000 (") ||
		!strings.Contains(hot[0].Summary, "and 2 more") {
		t.Errorf("the hotspot does not name the hot rows it covers: %s %v", hot[0].Summary, hot[0].Evidence)
	}
	rows := got[KindHotRow]
	if len(rows) != 1 || rows[0].Prefix != "config#flags" {
		t.Errorf("hot rows %+v, want only the config row outside the hotspot", rows)
	}
}
