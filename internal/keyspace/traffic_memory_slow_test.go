//go:build slow

package keyspace

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// TestRecordingMemoryIsBoundedByNodes: ten times the operations over the
// same keys take about the same memory.
func TestRecordingMemoryIsBoundedByNodes(t *testing.T) {
	heapAfter := func(n int) uint64 {
		r := NewRecordingBuilder(RecordingMeta{Started: recStart, Delimiters: "#"}, Options{})
		op := Op{Table: "t", Method: MethodReadRows, Keys: make([]Key, 1), RowsRead: make([]RowIO, 1)}
		for i := range n {
			key := Key(fmt.Sprintf("user#%05d#x", (i*7919)%20000))
			op.Time = recStart.Add(time.Duration(i) * time.Millisecond)
			op.Keys[0], op.RowsRead[0] = key, RowIO{Key: key, Bytes: 50}
			r.Add(&op)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(r)
		return m.HeapAlloc
	}
	small, large := heapAfter(100_000), heapAfter(1_000_000)
	t.Logf("heap after 100k operations: %d bytes; after 1M: %d bytes", small, large)
	if ratio := float64(large) / float64(small); ratio > 1.3 {
		t.Errorf("1M operations take %.2f× the memory of 100k (%d vs %d bytes)", ratio, large, small)
	}
}
