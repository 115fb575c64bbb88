package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// scanWindDown is how long a scan may take after SIGINT or SIGTERM to
// stop its reads and write what it read before btviz abandons it (a
// second signal stops it at once). A scan of the emulator stopped in
// 46–75 ms, 143–322 ms under -race with four busy loops on two cores
// (TestSignalStopsAScanWithItsCodeAndWritesWhatItRead); on CI's busy
// cores it took over [stopGrace], and the rows it had read were lost.
const scanWindDown = 10 * time.Second

func (a *app) scanCommand() *cobra.Command {
	var f snapshotFlags
	var out string
	cmd := &cobra.Command{
		Use:   "scan --table T --out FILE [scan flags]",
		Short: "Scan a table and save its snapshot for later (open, report, export, diff)",
		Long: "Read a table's key space and write a snapshot file: the tablet map, the prefix tree with\n" +
			"rows, bytes, cells and write times per prefix, the largest rows and a sample of keys.\n" +
			"The file is gzip-compressed JSON (format documented in package keyspace); it holds no\n" +
			"cell values. A scan that stops part-way still writes what it read, marked incomplete,\n" +
			"and exits 3 (130 or 143 when Ctrl+C or SIGTERM stopped it).",
		Example: "  btviz scan --emulator --table social-celebrity --out celebrity.btviz\n" +
			"  btviz scan --project my-project --instance prod --table events --sample 5% --out events.btviz",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				example := "table"
				if f.target.Table != "" {
					example = artifact.SafeName(f.target.Table)
				}
				return usageErrorf("say where to write the snapshot: --out FILE (e.g. --out %s.btviz)", example)
			}
			a.allowWindDown(scanWindDown)
			got, err := a.acquire(cmd, &f)
			if err != nil {
				return err
			}
			if err := keyspace.Save(out, got.snap); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "wrote %s: %s\n", escape.Text(out), describeScan(got.snap))
			return got.partial
		},
	}
	f.register(cmd)
	cmd.Flags().MarkHidden("snapshot")
	cmd.Flags().StringVar(&out, "out", "", "snapshot file to write")
	return cmd
}

// describeScan sums up a snapshot in one line for the terminal. Of a
// scan that stopped part-way it says so, not why: the error that follows
// it says why (it would say it twice).
func describeScan(snap *keyspace.Snapshot) string {
	scan := snap.Scan
	mode := "every row"
	if scan.Mode.IsSample() {
		mode = fmt.Sprintf("a %.3g%% sample", 100*scan.Fraction)
	}
	status := "complete"
	total := fmt.Sprintf("of about %s", units.Thousands(scan.RowsEstimated))
	switch {
	case !scan.Complete:
		status = "INCOMPLETE (why is below)"
		total = fmt.Sprintf("before it stopped; the range holds about %s by the share of its bytes read", units.Thousands(scan.RowsEstimated))
	case scan.HasInterval():
		total += fmt.Sprintf(" (95%%: %s–%s)", units.Thousands(scan.RowsEstimatedLow), units.Thousands(scan.RowsEstimatedHigh))
	}
	return fmt.Sprintf("table %s, %s rows read (%s) %s, %s, %s, %s",
		escape.Quote(snap.Table), units.Thousands(scan.RowsRead), mode, total, units.Bytes(float64(scan.BytesEstimated)), units.Duration(scan.Duration), status)
}
