package sampler

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
)

// testCell is one cell a fixture writes.
type testCell struct {
	family, qualifier string
	timestamp         int64 // microseconds, a multiple of 1000
	valueBytes        int
}

// testRow is one row a fixture writes.
type testRow struct {
	key   string
	cells []testCell
}

// fixtureTotals are what a full scan of the rows must count.
type fixtureTotals struct {
	rows, cells, valueBytes, bytes int64
}

func totalsOf(rows []testRow) fixtureTotals {
	var t fixtureTotals
	for _, r := range rows {
		t.rows++
		t.bytes += int64(len(r.key))
		for _, c := range r.cells {
			t.cells++
			t.valueBytes += int64(c.valueBytes)
			t.bytes += int64(len(c.family) + len(c.qualifier) + cellOverheadBytes + c.valueBytes)
		}
	}
	return t
}

// createTable creates table with families.
func createTable(t testing.TB, conn *connect.Conn, table string, families ...string) {
	t.Helper()
	ctx := context.Background()
	if err := conn.Admin.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if err := conn.Admin.CreateColumnFamily(ctx, table, f); err != nil {
			t.Fatal(err)
		}
	}
}

// load writes rows with ApplyBulk, a few chunks at a time.
func load(t testing.TB, conn *connect.Conn, table string, rows []testRow) {
	t.Helper()
	const chunk = 2000
	tbl := conn.Client.Open(table)
	var wg sync.WaitGroup
	errs := make(chan error, len(rows)/chunk+1)
	slots := make(chan struct{}, 4)
	for from := 0; from < len(rows); from += chunk {
		part := rows[from:min(from+chunk, len(rows))]
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			keys := make([]string, len(part))
			muts := make([]*bigtable.Mutation, len(part))
			for i, r := range part {
				keys[i] = r.key
				muts[i] = bigtable.NewMutation()
				for _, c := range r.cells {
					muts[i].Set(c.family, c.qualifier, bigtable.Timestamp(c.timestamp), make([]byte, c.valueBytes))
				}
			}
			rowErrs, err := tbl.ApplyBulk(context.Background(), keys, muts)
			if err == nil {
				for _, e := range rowErrs {
					if e != nil {
						err = e
						break
					}
				}
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// fixtureBase is the fixtures' first write time: 2024-01-01T00:00:00Z.
const fixtureBase = int64(1704067200) * 1_000_000

// prefixedRows returns n rows over the given top-level prefixes with the
// weights given (row i goes to the prefix its hash picks), each with one
// to three cells in families "m" and "meta", values of 10 to 200 bytes.
func prefixedRows(n int, prefixes []string, weights []int) []testRow {
	total := 0
	for _, w := range weights {
		total += w
	}
	rows := make([]testRow, n)
	for i := range rows {
		h := uint64(i)*0x9e3779b97f4a7c15 + 12345
		h ^= h >> 29
		pick := int(h % uint64(total))
		p := 0
		for ; pick >= weights[p]; p++ {
			pick -= weights[p]
		}
		ts := fixtureBase + int64(i%5000)*60_000_000
		cells := []testCell{{"m", "cpu", ts, 10 + i%50}}
		if i%2 == 0 {
			cells = append(cells, testCell{"m", "mem", ts + 1000, 20 + i%100})
		}
		if i%3 == 0 {
			cells = append(cells, testCell{"meta", "fw", ts, 200})
		}
		rows[i] = testRow{key: fmt.Sprintf("%s#%07d", prefixes[p], i), cells: cells}
	}
	return rows
}

var (
	testPrefixes = []string{"alpha", "beta", "gamma", "delta", "eps"}
	testWeights  = []int{40, 25, 20, 10, 5}
)

// bigtableMutation sets cells blob:c<from>…blob:c<to-1> to value.
func bigtableMutation(from, to int, value []byte) *bigtable.Mutation {
	mut := bigtable.NewMutation()
	for i := from; i < to; i++ {
		mut.Set("blob", fmt.Sprintf("c%03d", i), bigtable.Timestamp(fixtureBase), value)
	}
	return mut
}
