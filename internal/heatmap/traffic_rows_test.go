package heatmap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// appRecording is the traffic of an app over a table of three datasets:
// sensor writes keyed by the time (a third of the calls, each a row of
// its own), reads of one user's items (most of the rest), of a config
// row, of random users' items, and short scans from a random point of
// the users (each returning three rows of the user after it).
func appRecording(t testing.TB) *keyspace.Snapshot {
	t.Helper()
	r := keyspace.NewRecordingBuilder(keyspace.RecordingMeta{Source: keyspace.SourceEmulator, Started: trafficStart}, keyspace.Options{})
	at := func(i int) time.Time { return trafficStart.Add(time.Duration(i) * 10 * time.Millisecond) }
	read := func(i int, key string) {
		k := keyspace.Key(key)
		r.Add(&keyspace.Op{Time: at(i), Table: "t", Method: keyspace.MethodReadRows, Keys: []keyspace.Key{k}, RowsRead: []keyspace.RowIO{{Key: k, Bytes: 200}}})
	}
	for i := range 3000 {
		switch i % 6 {
		case 0, 1:
			k := keyspace.Key(fmt.Sprintf("%013d#sensor%02d", at(i).UnixMilli(), i%20))
			r.Add(&keyspace.Op{Time: at(i), Table: "t", Method: keyspace.MethodMutateRow, Keys: []keyspace.Key{k}, RowsWritten: []keyspace.RowIO{{Key: k, Bytes: 30}}})
		case 2, 3:
			read(i, fmt.Sprintf("user#u0613#item#%03d", i%10))
		case 4:
			if i%12 == 4 {
				read(i, "config#global")
			} else {
				read(i, fmt.Sprintf("user#u%04d#item#%03d", (i*7919)%2000, i%10))
			}
		case 5:
			user := (i * 104729) % 2000
			op := keyspace.Op{Time: at(i), Table: "t", Method: keyspace.MethodReadRows, RowLimit: 3,
				Ranges: []keyspace.KeyRange{{Start: keyspace.Key(fmt.Sprintf("user#u%04d", user)), End: "user$"}}, CallRows: 3}
			for item := range 3 {
				op.RowsRead = append(op.RowsRead, keyspace.RowIO{Key: keyspace.Key(fmt.Sprintf("user#u%04d#item#%03d", user, item)), Bytes: 200})
			}
			r.Add(&op)
		}
	}
	return r.Snapshot("t", at(3000))
}

// TestRecordingRowsGoToOperations: the default view of a recording, even
// buckets of operations, gives the hot user (a third of all operations)
// rows of its own, one per item it holds, while the sensor keys, each
// written once, share theirs; one row per prefix of the table gives all
// of user# one row among the sensors' many.
func TestRecordingRowsGoToOperations(t *testing.T) {
	snap := appRecording(t)
	m := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketEven, Metric: MetricOps, Rows: 39, Columns: 30})
	hot := 0
	for _, b := range m.Buckets {
		if strings.HasPrefix(string(b.LabelKey), "user#u0613#") {
			hot++
		}
	}
	prefix := mustBuild(t, snap, View{Node: snap.Root, Bucketing: BucketPrefix, Metric: MetricOps, Rows: 39, Columns: 30})
	users := 0
	for _, b := range prefix.Buckets {
		if strings.HasPrefix(string(b.LabelKey), "user#") {
			users++
		}
	}
	if users != 1 {
		t.Errorf("one row per prefix gives user# %d rows, want the one this test contrasts with", users)
	}
	if hot < 8 {
		var labels []string
		for _, b := range m.Buckets {
			labels = append(labels, b.Label)
		}
		t.Errorf("the hot user has %d of %d rows, want one per item it holds (nearly): %v", hot, len(m.Buckets), labels)
	}
}

// TestWideScansAreDrawnOverTheKeysTheyRead: scans of ranges wider than
// one user are counted at user#, the node that holds their ranges; the
// heatmap draws their operations over the users whose rows they
// returned, not as a bucket of their own before the first user, labelled
// by a key it does not hold. Every operation is still drawn once.
func TestWideScansAreDrawnOverTheKeysTheyRead(t *testing.T) {
	snap := appRecording(t)
	users := snap.Root.Lookup("user#")
	if users == nil {
		t.Fatal("no user# node")
	}
	node := users[len(users)-1]
	if !node.HasRemainder() {
		t.Fatal("user# holds no traffic beyond its children's: the test needs wide scans")
	}
	m := mustBuild(t, snap, View{Node: node, Bucketing: BucketPrefix, Metric: MetricOps, Rows: 200})
	var total float64
	for i, b := range m.Buckets {
		total += m.BucketTotal(i)
		if b.Node == nil && b.Units == 1 && b.Start == node.Start && b.Stats.Rows == 0 && b.Traffic.RowsRead == 0 {
			t.Errorf("bucket %d [%s, %s) holds only the wide scans' operations: %v", i, b.Start, b.End, b.Traffic)
		}
	}
	if total != node.Traffic.Ops {
		t.Errorf("the buckets hold %v operations, user# %v", total, node.Traffic.Ops)
	}
}
