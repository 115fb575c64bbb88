package emulator

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/demo"
)

// progressLog records SeedProgress reports and checks their invariants.
type progressLog struct {
	mu         sync.Mutex
	inCall     bool
	last       map[string]SeedProgress
	concurrent bool
}

func (p *progressLog) report(sp SeedProgress) {
	p.mu.Lock()
	if p.inCall {
		p.concurrent = true
	}
	p.inCall = true
	if p.last == nil {
		p.last = map[string]SeedProgress{}
	}
	p.last[sp.Scenario] = sp
	p.mu.Unlock()

	time.Sleep(time.Microsecond) // widen the window for overlapping calls
	p.mu.Lock()
	p.inCall = false
	p.mu.Unlock()
}

func TestSeedReplacesExistingTable(t *testing.T) {
	env := startEmulator(t)
	ctx := testContext(t, time.Minute)
	scenarios, err := demo.Lookup("hashed-order-keys")
	if err != nil {
		t.Fatal(err)
	}
	sc := scenarios[0]

	// A stale table of the same name, with another family and a row the
	// scenario does not write.
	err = env.admin.CreateTableFromConf(ctx, &bigtable.TableConf{
		TableID:        sc.Name,
		ColumnFamilies: map[string]bigtable.Family{"stale": {}, "doc": {}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mutation := bigtable.NewMutation()
	mutation.Set("stale", "x", bigtable.Time(demo.DemoNow().Add(-time.Hour)), []byte("left over"))
	if err := env.client.Open(sc.Name).Apply(ctx, "zzz-stale-row", mutation); err != nil {
		t.Fatal(err)
	}

	if err := Seed(ctx, env.admin, env.client, scenarios, nil); err != nil {
		t.Fatal(err)
	}
	verifyScenario(t, ctx, env.client, env.admin, sc)
}

func TestSeedRejectsBadInput(t *testing.T) {
	env := startEmulator(t)
	ctx := testContext(t, time.Minute)
	scenarios, err := demo.Lookup("bus-locations")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		admin     *bigtable.AdminClient
		client    *bigtable.Client
		scenarios []demo.Scenario
		want      string
	}{
		{"no admin client", nil, env.client, scenarios, "admin client"},
		{"no data client", env.admin, nil, scenarios, "data client"},
		{"listed twice", env.admin, env.client, append(scenarios, scenarios...), "listed twice"},
		{"not from Lookup", env.admin, env.client, []demo.Scenario{{Name: "home-made", Rows: 1}}, "not a known scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Seed(ctx, tt.admin, tt.client, tt.scenarios, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Seed() error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
	tables, err := env.admin.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 0 {
		t.Errorf("rejected seeds created tables %v", tables)
	}
}

func TestSeedStopsWhenCancelled(t *testing.T) {
	env := startEmulator(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	scenarios, err := demo.Lookup("users-sequential-ids,pii-login-keys,bus-locations,hashed-order-keys")
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var reports []SeedProgress
	err = Seed(ctx, env.admin, env.client, scenarios, func(p SeedProgress) {
		reports = append(reports, p)
		if p.RowsWritten > 0 {
			once.Do(cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Seed() error = %v, want context.Canceled", err)
	}
	for _, p := range reports {
		if p.Done && p.Err == nil && p.RowsWritten == p.RowsTotal {
			t.Errorf("%s finished after cancellation", p.Scenario)
		}
	}
}

func TestSeedFailsOnStoppedEmulator(t *testing.T) {
	env := startEmulator(t)
	ctx := testContext(t, 30*time.Second)
	if err := env.server.Close(); err != nil {
		t.Fatal(err)
	}
	scenarios, err := demo.Lookup("bus-locations")
	if err != nil {
		t.Fatal(err)
	}
	err = Seed(ctx, env.admin, env.client, scenarios, nil)
	if err == nil || !strings.Contains(err.Error(), `seed scenario "bus-locations"`) {
		t.Errorf("Seed() error = %v, want one naming the scenario", err)
	}
}

// TestPanicWhileSeedingIsABug: a panic on one of the goroutines that
// load the scenarios (here in the progress callback, which they call)
// used to kill the process; Seed returns it as the bug it is.
func TestPanicWhileSeedingIsABug(t *testing.T) {
	env := startEmulator(t)
	ctx := testContext(t, time.Minute)
	scenarios, err := demo.Lookup("bus-locations")
	if err != nil {
		t.Fatal(err)
	}
	err = Seed(ctx, env.admin, env.client, scenarios, func(p SeedProgress) {
		if p.RowsWritten > 0 {
			panic("progress")
		}
	})
	var crash *bug.Error
	if !errors.As(err, &crash) || !strings.Contains(err.Error(), "a bug in btviz") {
		t.Fatalf("err = %v, want the bug", err)
	}
}
