package sampler_test

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/internal/scantest"
	"github.com/btviz/btviz/sampler"
)

// Every mode splits every demo table's keys at the same delimiters, and
// none fails: a scan decides its delimiters once, for all its readers.
func TestEveryModeAgreesOnDelimiters(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds every demo table")
	}
	ctx := context.Background()
	conn, scenarios := demoTables(t)
	modes := map[string]sampler.Options{
		"--full": {Full: true}, "--sample 0.05": {Fraction: 0.05},
		"--max-rows 10": {MaxRows: 10}, "--max-rows 100": {MaxRows: 100}, "--max-rows 1000": {MaxRows: 1000},
	}
	for _, sc := range scenarios {
		want := ""
		for _, name := range []string{"--full", "--sample 0.05", "--max-rows 10", "--max-rows 100", "--max-rows 1000"} {
			snap, err := sampler.Scan(ctx, conn, sc.Name, modes[name])
			if err != nil {
				t.Errorf("%s %s: %v", sc.Name, name, err)
				continue
			}
			if name == "--full" {
				want = snap.Delimiters
			} else if snap.Delimiters != want {
				t.Errorf("%s %s: delimiters %q, the full scan's %q", sc.Name, name, snap.Delimiters, want)
			}
		}
	}
}

// demoTables seeds every demo scenario into an embedded emulator started
// with opts and connects to it.
func demoTables(t *testing.T, opts ...grpc.ServerOption) (*connect.Conn, []demo.Scenario) {
	t.Helper()
	conn, err := connect.Open(context.Background(), scantest.Seed(t, "all", opts...))
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
