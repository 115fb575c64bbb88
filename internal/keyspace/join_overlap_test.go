package keyspace

import (
	"fmt"
	"testing"
	"time"
)

// TestOverlapCountsTheTrafficOnStoredKeys: of a recording whose reads
// fall half on keys a scan found and half on others, Overlap gives half,
// and the key spans of both.
func TestOverlapCountsTheTrafficOnStoredKeys(t *testing.T) {
	b := NewBuilder(&Snapshot{Table: "t", Scan: ScanInfo{Mode: ModeFull, Fraction: 1, Complete: true}}, Options{Delimiters: "#"})
	for i := range 1000 {
		b.Add(&Row{Key: fmt.Sprintf("acct#%04d", i), Cells: []Cell{{Family: "f", Qualifier: "q", Timestamp: 1, ValueBytes: 1}}})
	}
	stored := b.Snapshot()
	r := NewRecordingBuilder(RecordingMeta{Source: SourceEmulator, Started: recStart}, Options{})
	for i := range 400 {
		op := opAt(float64(i)/100, MethodReadRows)
		op.Keys = keys(fmt.Sprintf("acct#%04d", i))
		if i%2 == 1 {
			op.Keys = keys(fmt.Sprintf("user#%04d", i))
		}
		r.Add(&op)
	}
	o := Overlap(stored, r.Snapshot("t", recStart.Add(time.Minute)))
	if o.Ops != 400 || o.OnStored != 200 || o.Share() != 0.5 || o.StoredFirst != "acct#0000" || o.StoredLast != "acct#0999" ||
		o.TouchedFirst != "acct#0000" || o.TouchedLast != "user#0399" {
		t.Errorf("overlap %+v, want 200 of 400 operations on stored keys and both key spans", o)
	}
}
