package keyspace_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/internal/scantest"
	"github.com/btviz/btviz/keyspace"
	"github.com/btviz/btviz/sampler"
)

// TestEveryDemoSnapshotPassesValidation: the checks a file must pass hold
// for every snapshot the real sampler writes, as scanned by default, sampled and capped,
// complete or not, so that validation refuses only files btviz did not
// write.
func TestEveryDemoSnapshotPassesValidation(t *testing.T) {
	if testing.Short() {
		t.Skip("scans every demo table three ways")
	}
	ctx := context.Background()
	conn, err := connect.Open(ctx, scantest.SeedOfficial(t, "all"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, opts := range []sampler.Options{{}, {Fraction: 0.05}, {MaxRows: 500}} {
		for _, sc := range demo.Scenarios() {
			snap, err := sampler.Scan(ctx, conn, sc.Name, opts)
			if snap == nil {
				t.Fatalf("scanning %s: %v", sc.Name, err)
			}
			var buf bytes.Buffer
			if err := keyspace.Encode(&buf, snap); err != nil {
				t.Fatal(err)
			}
			if _, err := keyspace.Decode(&buf); err != nil {
				t.Errorf("%s (%+v): %v", sc.Name, opts, err)
			}
		}
	}
}
