package hottablets

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo/demotest"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

var simStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// counterTraffic records 6 minutes of a hot counter: 150 increments a
// second of counter#likes and 50 writes a second spread over users'
// posts.
func counterTraffic(t *testing.T, table string) *keyspace.Snapshot {
	t.Helper()
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: simStart, Delimiters: "#"}, keyspace.Options{})
	for i := range 6 * 60 * 200 {
		at := simStart.Add(time.Duration(i) * 5 * time.Millisecond)
		key := keyspace.Key("counter#likes")
		method := keyspace.MethodReadModifyWriteRow
		if i%4 == 0 {
			key = keyspace.Key(fmt.Sprintf("user#u%03d#p%06d#%d", i%97, i%400, i))
			method = keyspace.MethodMutateRow
		}
		r.Add(&keyspace.Op{Time: at, Table: table, Method: method, Keys: []keyspace.Key{key}, RowsWritten: []keyspace.RowIO{{Key: key, Bytes: 20}}, Latency: time.Millisecond})
	}
	return r.Snapshot(table, simStart.Add(6*time.Minute))
}

func TestSimulatedHotTabletsFindTheHotCounterRow(t *testing.T) {
	scan := demotest.Snapshot(t, "social-celebrity")
	joined, err := keyspace.Join(scan, counterTraffic(t, scan.Table))
	if err != nil {
		t.Fatal(err)
	}
	hot := Simulate(joined, simStart.Add(6*time.Minute))
	if !hot.Simulated() || hot.Note == "" {
		t.Fatalf("not labelled simulated: %+v", hot.Source)
	}
	rowSamples := 0
	for _, s := range hot.Tablets {
		if row, ok := s.OneRow(); ok && row == "counter#likes" {
			rowSamples++
			// 150 increments a second: 300 units of 400, 75%.
			if s.CPU < 70 || s.CPU > 80 {
				t.Errorf("the counter's tablet at %v: %v%%, want 75%%", s.Start, s.CPU)
			}
		}
	}
	if rowSamples != 6 {
		t.Errorf("%d samples of the counter's one-row tablet, want one a minute for 6 minutes", rowSamples)
	}
	found := 0
	for _, f := range diagnose.Diagnose(keyspace.WithHotTablets(joined, hot)) {
		if f.Kind != diagnose.KindHotTablet {
			continue
		}
		found++
		if f.Prefix != "counter#likes" || !strings.HasPrefix(f.Summary, "SIMULATED") || f.Severity != diagnose.SeverityError {
			t.Errorf("hot-tablet: %s %s", f.Severity, f.Summary)
		}
	}
	if found != 1 {
		t.Errorf("%d hot-tablet findings, want the counter's row", found)
	}
}
