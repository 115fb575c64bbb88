//go:build slow

package sampler_test

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// Every mode splits every demo table's keys at the same delimiters, and
// every snapshot it writes reads back. A scan decides its delimiters
// once, for all its readers. The checks a file must pass when it is
// opened (keyspace.Decode) hold for every snapshot the real sampler
// writes — scanned in full, sampled and capped — so that they refuse
// only files btviz did not write. The tables are on the
// official emulator binary, which is not built with the race detector.
func TestEveryModeAgreesOnDelimitersAndReadsBack(t *testing.T) {
	ctx := context.Background()
	conn, err := connect.Open(ctx, emutest.SeedOfficial(t, "all"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	modes := []struct {
		name string
		opts sampler.Options
	}{
		// First: the delimiters the others must find. The default reads
		// these tables (of 20,000 rows or so) in full, as --full does.
		{"--full", sampler.Options{Full: true}},
		{"--sample 0.05", sampler.Options{Fraction: 0.05}},
		// Below a row a key range, and above.
		{"--max-rows 10", sampler.Options{MaxRows: 10}},
		{"--max-rows 1000", sampler.Options{MaxRows: 1000}},
	}
	for _, sc := range demo.Scenarios() {
		want := ""
		for _, mode := range modes {
			snap, err := sampler.Scan(ctx, conn, sc.Name, mode.opts)
			if err != nil {
				t.Errorf("%s %s: %v", sc.Name, mode.name, err)
				continue
			}
			if mode.opts.Full {
				want = snap.Delimiters
			} else if snap.Delimiters != want {
				t.Errorf("%s %s: delimiters %q, the full scan's %q", sc.Name, mode.name, snap.Delimiters, want)
			}
			var buf bytes.Buffer
			if err := keyspace.Encode(&buf, snap); err != nil {
				t.Fatal(err)
			}
			if _, err := keyspace.Decode(&buf); err != nil {
				t.Errorf("%s %s: the snapshot does not read back: %v", sc.Name, mode.name, err)
			}
		}
	}
}

// demoTables seeds every demo scenario into an embedded emulator started
// with opts and connects to it.
func demoTables(t *testing.T, opts ...grpc.ServerOption) (*connect.Conn, []demo.Scenario) {
	t.Helper()
	conn, err := connect.Open(context.Background(), emutest.Seed(t, "all", opts...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	scenarios, err := demo.Lookup("all")
	if err != nil {
		t.Fatal(err)
	}
	return conn, scenarios
}
