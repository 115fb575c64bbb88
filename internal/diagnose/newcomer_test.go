package diagnose

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
)

// newcomerRecording builds, in-process, a recording of the newcomer-app
// workload's calls: a third of them sensor writes keyed by the time, the
// rest reads, 55% of them of the hot user's items, 15% of config#global,
// 10% scans of the hot user's items (5 rows at most) and 20% of random
// users' items.
func newcomerRecording(t *testing.T, calls int) *keyspace.Snapshot {
	t.Helper()
	r := rand.New(rand.NewPCG(27, 1))
	start := demo.DemoNow()
	b := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start}, keyspace.Options{})
	var last time.Time
	for i := range calls {
		at := start.Add(time.Duration(i) * 5 * time.Millisecond)
		op := keyspace.Op{Time: at, Table: "newcomer-app", Method: keyspace.MethodReadRows}
		item := func(user int) keyspace.Key {
			return keyspace.Key(demo.NewcomerItemKey(user, r.IntN(demo.NewcomerItemsPerUser)))
		}
		point := func(key keyspace.Key) {
			op.Keys, op.RowsRead = []keyspace.Key{key}, []keyspace.RowIO{{Key: key, Bytes: 200}}
		}
		if r.Float64() < 1.0/3 {
			key := keyspace.Key(demo.NewcomerSensorKey(at, r.IntN(demo.NewcomerSensors)))
			op.Method, op.Keys, op.RowsWritten = keyspace.MethodMutateRow, []keyspace.Key{key}, []keyspace.RowIO{{Key: key, Bytes: 30}}
		} else {
			switch x := r.Float64(); {
			case x < 0.55:
				point(item(demo.NewcomerHotUserID))
			case x < 0.70:
				point(demo.NewcomerConfigRow)
			case x < 0.80:
				op.Ranges = []keyspace.KeyRange{{Start: demo.NewcomerHotUser, End: keyspace.Key(keyspace.PrefixEnd(demo.NewcomerHotUser))}}
				op.RowLimit = 5
				for k := range 5 {
					key := keyspace.Key(demo.NewcomerItemKey(demo.NewcomerHotUserID, k))
					op.RowsRead = append(op.RowsRead, keyspace.RowIO{Key: key, Bytes: 200})
				}
				op.CallRows = 5
			default:
				point(item(r.IntN(demo.NewcomerUsers)))
			}
		}
		b.Add(&op)
		last = at
	}
	rec := b.Snapshot("newcomer-app", last)
	if rec == nil {
		t.Fatal("nothing recorded")
	}
	return rec
}

// newcomerVerdict checks what the newcomer must be told: the
// timestamp-first sensor keys at their dataset, the read hotspot at
// exactly the hot user's prefix and the config row as a hot row when
// there is traffic, and nothing about user#'s storage.
func newcomerVerdict(t *testing.T, what string, findings []Finding, scan, traffic bool) {
	t.Helper()
	has := func(kind Kind, match func(Finding) bool) bool {
		return slices.ContainsFunc(findings, func(f Finding) bool { return f.Kind == kind && f.Severity >= SeverityWarning && match(f) })
	}
	if scan && !has(KindKeyStartsWithTimestamp, func(f Finding) bool { return f.Dataset == demo.NewcomerSensorDataset }) {
		t.Errorf("%s: no key-starts-with-timestamp at the sensor readings' dataset", what)
	}
	if traffic {
		if !has(KindReadHotspot, func(f Finding) bool { return f.Prefix == demo.NewcomerHotUser }) {
			t.Errorf("%s: no read-hotspot at exactly %s", what, demo.NewcomerHotUser)
		}
		if !has(KindHotRow, func(f Finding) bool { return f.Prefix == demo.NewcomerConfigRow }) {
			t.Errorf("%s: no hot-row at %s", what, demo.NewcomerConfigRow)
		}
	}
	for _, f := range findings {
		if f.Severity < SeverityWarning {
			continue
		}
		if f.Start == "" && f.End == "" {
			t.Errorf("%s: %s is table-wide in a table of three datasets: %s", what, f.Kind, f.Summary)
		}
		onUsers := strings.HasPrefix(string(f.Start), "user#") || f.Dataset == "user#"
		// The hot user's read hotspot, and its items each read as a hot
		// row, are traffic; nothing may be said of user#'s storage.
		ofHotUser := (f.Kind == KindReadHotspot && f.Prefix == demo.NewcomerHotUser) ||
			(f.Kind == KindHotRow && strings.HasPrefix(string(f.Prefix), demo.NewcomerHotUser))
		if onUsers && !ofHotUser {
			t.Errorf("%s: %s %s at %q on user#: %s", what, f.Severity, f.Kind, f.Prefix, f.Summary)
		}
	}
	if t.Failed() {
		for _, f := range findings {
			t.Logf("  %s %s [%s, %s) %q %s: %s", f.Severity, f.Kind, f.Start, f.End, f.Prefix, f.Dataset, f.Summary)
		}
	}
}

// TestNewcomerTable diagnoses the newcomer table in-process: its
// scan, a recording of its app's traffic, and the two joined.
func TestNewcomerTable(t *testing.T) {
	sc, ok := demo.Named("newcomer-app")
	if !ok {
		t.Fatal("no newcomer-app scenario")
	}
	scan, err := sc.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	rec := newcomerRecording(t, 3000)
	joined, err := keyspace.Join(scan, rec)
	if err != nil {
		t.Fatal(err)
	}
	newcomerVerdict(t, "scan", Diagnose(scan), true, false)
	newcomerVerdict(t, "recording", Diagnose(rec), false, true)
	newcomerVerdict(t, "joined", Diagnose(joined), true, true)
	for _, f := range Diagnose(joined) {
		if f.Kind == KindReadHotspot && !strings.Contains(f.Summary, demo.NewcomerHotUser) {
			t.Errorf("the joined read-hotspot does not name %s: %s", demo.NewcomerHotUser, f.Summary)
		}
	}
}
