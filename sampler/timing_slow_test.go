//go:build slow

package sampler

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/demo"
	"github.com/btviz/btviz/emulator"
	"github.com/btviz/btviz/internal/cloudlike"
)

func TestTimingDemo(t *testing.T) {
	ctx := context.Background()
	counter := &cloudlike.Counter{}
	srv := startEmulator(t, cloudlike.ServerOptions(cloudlike.Uneven(16, 3, 0.3), counter)...)
	conn := openEmulator(t, srv.Addr, "")
	scenarios, _ := demo.Lookup("all")
	if err := emulator.Seed(ctx, conn.Admin, conn.Client, scenarios, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	debugCalls = func(name string) { mu.Lock(); calls[name]++; mu.Unlock() }
	for _, sc := range scenarios {
		if only := os.Getenv("BTVIZ_TABLE"); only != "" && only != sc.Name {
			continue
		}
		began := time.Now()
		counter.Reset()
		for seed := range uint64(3) {
			if _, err := Scan(ctx, conn, sc.Name, Options{Fraction: 0.05, Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%-30s %v, %d calls, %d rows %v", sc.Name, time.Since(began)/3, counter.Calls()/3, counter.Rows()/3, calls)
		calls = map[string]int{}
	}
}
