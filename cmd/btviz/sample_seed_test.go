package main

import (
	"encoding/json"
	"testing"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
)

// --seed picks a sample's random choices: the same seed over the same
// table reads the same rows and estimates alike, another seed draws
// another sample; the default seed is reproducible. The JSON report
// gives every prefix it lists a 95% interval, and --all-prefixes lists
// every top-level one.
func TestSeedDrawsAnotherSample(t *testing.T) {
	env := seededEmulator(t, "two-datasets", cloudlike.ServerOptions(cloudlike.Uneven(12, 3, 0.3), nil)...)
	type scan struct {
		RowsRead      int64 `json:"rows_read"`
		RowsEstimated int64 `json:"rows_estimated"`
	}
	type doc struct {
		Scan     scan `json:"scan"`
		Prefixes []struct {
			Prefix   string
			Depth    int
			Rows     int64
			RowsLow  *int64 `json:"rows_low"`
			RowsHigh *int64 `json:"rows_high"`
		} `json:"prefixes"`
	}
	report := func(extra ...string) doc {
		t.Helper()
		args := append([]string{"report", "--table", "two-datasets", "--format", "json", "--sample", "0.05", "--all-prefixes"}, extra...)
		r := runBtviz(t, env, args...)
		if r.code != exitOK && r.code != exitFindings {
			t.Fatalf("%v: exit %d\n%s", extra, r.code, r.stderr)
		}
		var d doc
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, r.stdout)
		}
		return d
	}
	first, again, other, byDefault := report("--seed", "1"), report("--seed", "1"), report("--seed", "2"), report()
	if first.Scan != again.Scan {
		t.Errorf("--seed 1 twice: %+v, then %+v", first.Scan, again.Scan)
	}
	if first.Scan == other.Scan {
		t.Errorf("--seed 1 and --seed 2 read alike: %+v", first.Scan)
	}
	if zero := report("--seed", "0"); zero.Scan != byDefault.Scan {
		t.Errorf("no --seed: %+v, --seed 0: %+v; the default is seed 0", byDefault.Scan, zero.Scan)
	}
	top := 0
	for _, p := range first.Prefixes {
		if p.RowsLow == nil || p.RowsHigh == nil || *p.RowsLow > p.Rows || p.Rows > *p.RowsHigh {
			t.Errorf("prefix %q: %d rows, interval %v–%v", p.Prefix, p.Rows, p.RowsLow, p.RowsHigh)
		}
		if p.Depth == 1 {
			top++
		}
	}
	if top < 2 {
		t.Errorf("%d top-level prefixes listed, want both datasets'", top)
	}
}
