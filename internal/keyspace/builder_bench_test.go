package keyspace

import (
	"fmt"
	"testing"
)

// benchRows returns n rows shaped like a multi-tenant time series:
// tenant#device#reading, three cells each.
func benchRows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		ts := base + int64(i)*1000
		rows[i] = Row{
			Key:    fmt.Sprintf("tenant%02d#device%05d#%013d", i%37, i%9973, ts),
			Weight: 1,
			Cells: []Cell{
				cell("m", "cpu", ts, 8), cell("m", "mem", ts, 8), cell("meta", "fw", ts, 24),
			},
		}
	}
	return rows
}

// BenchmarkBuilderAdd measures the aggregation cost per row.
func BenchmarkBuilderAdd(b *testing.B) {
	rows := benchRows(200_000)
	b.ReportAllocs()
	b.ResetTimer()
	builder := newTestBuilder(Options{Delimiters: "#"})
	for i := 0; i < b.N; i++ {
		builder.Add(&rows[i%len(rows)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
