package sampler

import (
	"context"
	"fmt"
	"testing"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/testkit/emutest"
)

// BenchmarkBatchAdd measures converting one client row into a batch: it
// must not allocate once the batch has been used.
func BenchmarkBatchAdd(b *testing.B) {
	row := bigtable.Row{
		"m":    {{Row: "tenant07#device00042#0001", Column: "m:cpu", Timestamp: 1000, Value: make([]byte, 8)}, {Row: "tenant07#device00042#0001", Column: "m:mem", Timestamp: 1000, Value: make([]byte, 8)}},
		"meta": {{Row: "tenant07#device00042#0001", Column: "meta:fw", Timestamp: 1000, Value: make([]byte, 24)}},
	}
	batch := newBatch()
	var families []string
	b.ReportAllocs()
	for b.Loop() {
		if batch.full() {
			batch.release()
			batch = newBatch()
		}
		batch.add(row, 1, &families)
	}
}

// benchTable loads rows into a fresh in-process emulator for the scan
// benchmarks and returns a connection to it.
func benchTable(b *testing.B, rows int) (*testing.B, func(Options) error) {
	srv := emutest.Start(b)
	conn := emutest.Open(b, emutest.Target(srv.Addr))
	createTable(b, conn, "events", "m", "meta")
	load(b, conn, "events", prefixedRows(rows, testPrefixes, testWeights))
	return b, func(opts Options) error {
		snap, err := Scan(context.Background(), conn, "events", opts)
		if err == nil && opts.Full && snap.Scan.RowsRead != int64(rows) {
			err = fmt.Errorf("read %d rows of %d", snap.Scan.RowsRead, rows)
		}
		return err
	}
}

// BenchmarkScanFull measures a full scan of 50,000 rows through the
// in-process emulator (client and server share the CPUs; bench/run.sh
// measures with the emulator in its own process).
func BenchmarkScanFull(b *testing.B) {
	const rows = 50_000
	b, scan := benchTable(b, rows)
	b.ReportAllocs()
	for b.Loop() {
		if err := scan(Options{Full: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkScanSample measures a 5% sample of the same table.
func BenchmarkScanSample(b *testing.B) {
	b, scan := benchTable(b, 50_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := scan(Options{Fraction: 0.05}); err != nil {
			b.Fatal(err)
		}
	}
}
