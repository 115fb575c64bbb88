package emulator

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
)

// BenchmarkSeedAll loads every scenario into a fresh embedded emulator and
// reports the load time, the rows per second and the heap the loaded
// emulator holds (the whole process's live heap after two collections, so
// it includes the clients' small share).
func BenchmarkSeedAll(b *testing.B) {
	scenarios := demo.Scenarios()
	rows := 0
	for _, sc := range scenarios {
		rows += sc.Rows
	}
	var heapMB float64
	for b.Loop() {
		b.StopTimer()
		server, err := Start("127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		client, admin, err := Dial(ctx, server.Addr, testProject, testInstance)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()

		if err := Seed(ctx, admin, client, scenarios, nil); err != nil {
			b.Fatal(err)
		}

		b.StopTimer()
		heapMB = liveHeapMB()
		_ = client.Close()
		_ = admin.Close()
		_ = server.Close()
		b.StartTimer()
	}
	elapsed := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	b.ReportMetric(heapMB, "heap-MB")
}

// liveHeapMB is the live heap after two collections (the second frees what
// sync.Pools kept through the first).
func liveHeapMB() float64 {
	var stats runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&stats)
	return float64(stats.HeapAlloc) / (1 << 20)
}
