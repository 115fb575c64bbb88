package keyspace_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// shiftStart is when the recordings of this file start.
var shiftStart = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// pointReads records a point read of each key, a millisecond apart,
// each returning a row when found says so.
func pointReads(keys []string, found bool) *keyspace.Snapshot {
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: shiftStart}, keyspace.Options{})
	for i, k := range keys {
		op := keyspace.Op{Time: shiftStart.Add(time.Duration(i) * time.Millisecond), Table: "t", Method: keyspace.MethodReadRows, Keys: []keyspace.Key{keyspace.Key(k)}}
		if found {
			op.RowsRead = []keyspace.RowIO{{Key: keyspace.Key(k), Bytes: 100}}
		}
		r.Add(&op)
	}
	return r.Snapshot("t", shiftStart.Add(time.Duration(len(keys))*time.Millisecond))
}

// TestAShiftOfTheKeyPopulationIsNoHotspot: 100,000 uniform reads of
// u… keys, then 100,000 of w… keys, as an application moving to new
// users does. The tree split during the first half must not take all of
// the second half in the one range that lay next to its keys (which read
// as a read hotspot of half the reads, 55 times a fair share): it
// re-splits as the traffic moves, and no node takes far more than an
// even share.
func TestAShiftOfTheKeyPopulationIsNoHotspot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 100000
	keys := make([]string, 2*n)
	for i := range keys {
		letter := "u"
		if i >= n {
			letter = "w"
		}
		keys[i] = fmt.Sprintf("%s%09d#", letter, rng.IntN(1e9))
	}
	for _, found := range []bool{false, true} {
		snap := pointReads(keys, found)
		for _, f := range diagnose.Diagnose(snap) {
			if f.Severity != diagnose.SeverityInfo {
				t.Errorf("rows found %v: uniform reads before and after a shift raise %s: %s", found, f.Kind, f.Summary)
			}
		}
		even := float64(2*n) / float64(len(snap.Root.Children))
		for _, c := range snap.Root.Children {
			if c.Traffic != nil && c.Traffic.Ops > 8*even {
				t.Errorf("rows found %v: %s [%s, %s) takes %.0f of %d reads, %.1f times an even share of %d children",
					found, c.Kind, c.Start, c.End, c.Traffic.Ops, 2*n, c.Traffic.Ops/even, len(snap.Root.Children))
			}
		}
	}
}

// TestHotspotCountsSayWhatTheyCount: a read hotspot of point reads that
// found no row says it counts point reads, and the rows they returned
// (none), not rows.
func TestHotspotCountsSayWhatTheyCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var keys []string
	for i := range 6000 {
		user := fmt.Sprintf("u%03d", rng.IntN(200))
		if i%2 == 0 {
			user = "mila"
		}
		keys = append(keys, fmt.Sprintf("user#%s#p%03d", user, rng.IntN(300)))
	}
	var hot []diagnose.Finding
	for _, f := range diagnose.Diagnose(pointReads(keys, false)) {
		if f.Kind == diagnose.KindReadHotspot {
			hot = append(hot, f)
		}
	}
	if len(hot) != 1 || !strings.Contains(hot[0].Summary, "3,000 point reads, which returned 0 rows") || hot[0].Evidence["rows_read"] != 0 {
		t.Fatalf("read hotspots %+v, want user#mila# counted as point reads that returned no row", hot)
	}
}
