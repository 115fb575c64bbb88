package keyspace

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkAddOp measures folding one operation into a recording: a mix
// of point reads, prefix scans, single-row and ten-row batch writes over
// 200,000 Zipf-hot users, as the recording proxy's sink feeds it.
func BenchmarkAddOp(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 11))
	zipf := rand.NewZipf(rng, 1.2, 1, 199_999)
	const n = 1 << 14
	ops := make([]Op, n)
	for i := range ops {
		user := zipf.Uint64()
		key := Key(fmt.Sprintf("user#%06d#post#%04d", user, rng.IntN(1000)))
		op := Op{Table: "events"}
		switch x := rng.IntN(100); {
		case x < 60:
			op.Method, op.Keys, op.RowsRead = MethodReadRows, []Key{key}, []RowIO{{Key: key, Bytes: 300}}
		case x < 70:
			prefix := fmt.Sprintf("user#%06d#", user)
			op.Method = MethodReadRows
			op.Ranges = []KeyRange{{Start: Key(prefix), End: Key(PrefixEnd(prefix))}}
			op.RowsRead, op.CallRows = []RowIO{{Key: key, Bytes: 300}}, 1
		case x < 90:
			op.Method, op.Keys, op.RowsWritten = MethodMutateRow, []Key{key}, []RowIO{{Key: key, Bytes: 120}}
		default:
			op.Method = MethodMutateRows
			for range 10 {
				k := Key(fmt.Sprintf("user#%06d#post#%04d", zipf.Uint64(), rng.IntN(1000)))
				op.Keys = append(op.Keys, k)
				op.RowsWritten = append(op.RowsWritten, RowIO{Key: k, Bytes: 120})
			}
		}
		op.Latency = time.Duration(200+rng.IntN(800)) * time.Microsecond // as the proxy measures it
		ops[i] = op
	}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	rec := NewRecordingBuilder(RecordingMeta{Started: start, Delimiters: "#"}, Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		op := &ops[i%n]
		op.Time = start.Add(time.Duration(i) * 100 * time.Microsecond)
		rec.Add(op)
	}
}

// BenchmarkAddOpBatch measures folding one MutateRows call of 100 random
// rows of 100,000 (bench/run.sh proxy's batch workload) into a
// recording: the recording proxy's cost per batch.
func BenchmarkAddOpBatch(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 5))
	const n = 256
	ops := make([]Op, n)
	for i := range ops {
		op := Op{Table: "bench", Method: MethodMutateRows}
		for range 100 {
			k := Key(fmt.Sprintf("user#%06d#profile", rng.IntN(100_000)))
			op.Keys = append(op.Keys, k)
			op.RowsWritten = append(op.RowsWritten, RowIO{Key: k, Bytes: 30})
		}
		op.Latency = time.Duration(1+rng.IntN(5)) * time.Millisecond // as the proxy measures it
		ops[i] = op
	}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	rec := NewRecordingBuilder(RecordingMeta{Started: start, Delimiters: "#"}, Options{})
	for i := range 4 * n { // a tree as after a few seconds of recording
		op := &ops[i%n]
		op.Time = start.Add(time.Duration(i) * time.Millisecond)
		rec.Add(op)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		op := &ops[i%n]
		op.Time = start.Add(time.Duration(4*n+i) * 500 * time.Microsecond)
		rec.Add(op)
	}
}

// BenchmarkHotCounterAdd measures counting one row in a hot-row counter
// under uniformly random writes to 100,000 rows, where counters change
// hands all the time (one row in six).
func BenchmarkHotCounterAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 5))
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = fmt.Sprintf("user#%06d#profile", rng.IntN(100_000))
	}
	h := newHotCounter(hotCounters)
	for i := range 1 << 20 { // counters full and churning
		h.add(keys[i%len(keys)], 1, 30)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		h.add(keys[i%len(keys)], 1, 30)
	}
}
