package sampler

import (
	"context"
	"fmt"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// TestTreeDoesNotDependOnConcurrency scans the salted celebrity feed, whose
// eight salt buckets each hold the celebrity at ~5% of the table, with one
// to eight reads in flight: every bucket's celebrity must come out as a
// prefix node holding all of her rows, however the readers' rows
// interleave (each read task builds its own chunk, appended in key order).
func TestTreeDoesNotDependOnConcurrency(t *testing.T) {
	ctx := context.Background()
	conn := emutest.Open(t, emutest.Seed(t, "social-celebrity-salted"))
	var want [8]float64
	for _, concurrency := range []int{1, 3, 8} {
		snap, err := Scan(ctx, conn, "social-celebrity-salted", Options{Full: true, Concurrency: concurrency})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Root.Rows != 20000 {
			t.Fatalf("concurrency %d: %v rows", concurrency, snap.Root.Rows)
		}
		for salt := range 8 {
			prefix := fmt.Sprintf("%d#user#mila_rosewood#", salt)
			path := snap.Root.Lookup(prefix)
			if path == nil || path[len(path)-1].Kind != keyspace.KindPrefix {
				t.Errorf("concurrency %d: %s was merged into a range", concurrency, prefix)
				continue
			}
			rows := path[len(path)-1].Rows
			if want[salt] == 0 {
				want[salt] = rows
			} else if rows != want[salt] {
				t.Errorf("concurrency %d: %s holds %v rows, %v at concurrency 1", concurrency, prefix, rows, want[salt])
			}
		}
	}
}
