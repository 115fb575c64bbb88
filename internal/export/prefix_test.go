package export

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// recordingOf returns a recording of table t in which the application
// read rows of users and scanned one prefix no row of which came back.
func recordingOf(t *testing.T) *keyspace.Snapshot {
	t.Helper()
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: start, Delimiters: "#"}, keyspace.Options{})
	for i := range 200 {
		key := keyspace.Key(fmt.Sprintf("user#u%02d#p%d", i%4, i%7))
		r.Add(&keyspace.Op{Time: start.Add(time.Duration(i) * 50 * time.Millisecond), Table: "t", Method: keyspace.MethodReadRows,
			Keys: []keyspace.Key{key}, RowsRead: []keyspace.RowIO{{Key: key, Bytes: 100}}})
	}
	r.Add(&keyspace.Op{Time: start, Table: "t", Method: keyspace.MethodReadRows,
		Ranges: []keyspace.KeyRange{{Start: "user#empty#", End: "user#empty$"}}})
	snap := r.Snapshot("t", start.Add(10*time.Second))
	if !snap.TrafficOnly() {
		t.Fatal("the recording holds stored rows")
	}
	return snap
}

// TestPrefixOfARecordingAlone: --prefix places the view on a recording
// with no scan joined as it does on a scan: a prefix whose keys the
// traffic touched, or that a scan asked for, is shown; one the traffic
// never reached is refused with what the recording did touch nearby.
func TestPrefixOfARecordingAlone(t *testing.T) {
	snap := recordingOf(t)
	for _, prefix := range []string{"user#u01#", "user#", "user#u01#p3", "user#empty#"} {
		var out strings.Builder
		if err := Render(&out, snap, nil, Options{Prefix: keyspace.Key(prefix), View: view.PanePrefixes, Format: artifact.FormatText, Width: 120, Height: 30}); err != nil {
			t.Errorf("--prefix %s on a recording: %v", prefix, err)
		} else if !strings.Contains(out.String(), "operations") {
			t.Errorf("--prefix %s: the view shows no operations:\n%s", prefix, out.String())
		}
	}
	err := Render(&strings.Builder{}, snap, nil, Options{Prefix: "user#nobody#", Format: artifact.FormatText})
	if err == nil || !strings.Contains(err.Error(), `the recording touched no key that starts with prefix "user#nobody#"`) || !strings.Contains(err.Error(), `"user#u00#"`) {
		t.Errorf("a prefix the traffic never reached: %v; want it named, with the prefixes nearby", err)
	}
}
