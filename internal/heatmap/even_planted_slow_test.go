//go:build slow

package heatmap

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/sampler"
)

// TestE2EEvenBucketingOfAScanDrawsThePlantedPicture plants the picture of
// [TestEvenBucketingDrawsThePlantedPicture] in a table of the embedded
// emulator, reads it with a full scan of the sampler (as `btviz export`
// does, in parallel key ranges) and requires r ≥ [minPictureR] at the band
// count and at twice it, for every key form, at fresh seeds (logged;
// BTVIZ_SEED replays one). It logs the pass rate.
func TestE2EEvenBucketingOfAScanDrawsThePlantedPicture(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("BTVIZ_SEED"), 10, 64); err == nil {
		seed = s
	}
	const seeds = 4
	t.Logf("seeds %d to %d (BTVIZ_SEED=%d replays them)", seed, seed+seeds-1, seed)
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	client, admin, err := emulator.Dial(ctx, srv.Addr, connect.EmulatorProject, connect.EmulatorInstance)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer admin.Close()
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: srv.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	checks, passed := 0, 0
	for s := seed; s < seed+seeds; s++ {
		for name, keyOf := range plantedKeyForms {
			pt := plant(t, s, keyOf)
			table := "planted"
			admin.DeleteTable(ctx, table) // a table of an earlier seed, if any
			if err := admin.CreateTable(ctx, table); err != nil {
				t.Fatal(err)
			}
			if err := admin.CreateColumnFamily(ctx, table, "f"); err != nil {
				t.Fatal(err)
			}
			var keys []string
			var muts []*bigtable.Mutation
			for _, row := range pt.rowsInKeyOrder() {
				m := bigtable.NewMutation()
				for _, cell := range row.Cells {
					m.Set(cell.Family, cell.Qualifier, bigtable.Timestamp(cell.Timestamp), make([]byte, cell.ValueBytes))
				}
				keys, muts = append(keys, row.Key), append(muts, m)
			}
			if errs, err := client.Open(table).ApplyBulk(ctx, keys, muts); err != nil || len(errs) > 0 {
				t.Fatalf("planting: %v %v", err, errs)
			}
			snap, err := sampler.Scan(ctx, conn, table, sampler.Options{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			for pieces := 1; pieces <= 2; pieces++ {
				r, labels := pt.pictureCorrelation(t, snap, pieces)
				checks++
				if r >= minPictureR {
					passed++
					continue
				}
				t.Errorf("seed %d, keys %s, %d buckets: r = %.4f between the planted and the drawn cells, want ≥ %v; buckets: %v",
					s, name, plantedBands*pieces, r, minPictureR, labels)
			}
		}
	}
	t.Logf("%d of %d pictures drawn with r ≥ %v", passed, checks, minPictureR)
}
