//go:build slow

package sampler

import (
	"context"
	"math"
	"testing"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// previewTolerance is how far a preview's rows may be from the rows the
// scan read on the Cloud-like tables, as a share of the rows read;
// namesTolerance on the table of names, whose spans, falling on users'
// clusters, read on past their limits (up to twice the tablet's budget)
// and whose tablets are swept when their spans find nothing, neither of
// which a plan can foresee: 33–36% measured (17–19% before the spans
// read on).
const (
	previewTolerance = 0.25
	namesTolerance   = 0.45
)

// TestPreviewStatesTheRowsTheScanReads checks, on the tables the
// Cloud-like tests sample (numbers on uneven tablets, names on even
// ones), that what a scan says it will read before it reads is within
// previewTolerance of what it read: the rows its final progress counts,
// and the rows the server sent but for the pilot's (read before the
// preview), at 1%, 0.1% and the default (these tables are read in full
// by default). Before the preview counted each tablet's probes and its
// fewest spans, it said 203 rows where a 0.1% sample read 1,405.
func TestPreviewStatesTheRowsTheScanReads(t *testing.T) {
	numbers := startCloudTable(t, 200_000, cloudlike.Uneven(50, 5, 0.2))
	names := &cloudTable{counter: &cloudlike.Counter{}}
	srv := emutest.Start(t, cloudlike.ServerOptions(cloudlike.Layout{Tablets: 50}, names.counter)...)
	names.addr = srv.Addr
	conn := emutest.Open(t, emutest.Target(names.addr))
	createTable(t, conn, "t", "m", "meta")
	names.rows = nameRows(100_000)
	load(t, conn, "t", names.rows)
	ctx := context.Background()
	for _, table := range []struct {
		name       string
		delimiters string
		*cloudTable
	}{{"numbers", "", numbers}, {"names", "#", names}} {
		conn := emutest.Open(t, emutest.Target(table.addr))
		for _, fraction := range []float64{0.01, 0.001, 0} {
			seeds := uint64(2)
			if fraction == 0 {
				seeds = 1 // the default reads these tables in full, whatever the seed
			}
			for seed := range seeds {
				var preview Preview
				var final Progress
				table.counter.Reset()
				_, err := Scan(ctx, conn, "t", Options{Fraction: fraction, Seed: seed, Delimiters: table.delimiters,
					Preview: func(p Preview) { preview = p }, Progress: func(p Progress) { final = p }})
				if err != nil {
					t.Fatal(err)
				}
				server := table.counter.Rows() - pilotRows - 3*checkRows // the pilot and the check of the tablets: three spans
				t.Logf("%s at %v seed %d: preview %d rows (%d B), the scan read %d (%d B), the server sent %d after the pilot; %s",
					table.name, fraction, seed, preview.ReadRows, preview.ReadBytes, final.RowsRead, final.BytesRead, server, preview.Reason)
				tolerance := previewTolerance
				if table.name == "names" {
					tolerance = namesTolerance
				}
				for _, read := range []int64{final.RowsRead, server} {
					if off := math.Abs(float64(preview.ReadRows-read)) / float64(read); off > tolerance {
						t.Errorf("%s at %v seed %d: the preview says %d rows, %d were read (%.0f%% off)", table.name, fraction, seed, preview.ReadRows, read, 100*off)
					}
				}
			}
		}
	}
}
