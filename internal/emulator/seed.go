package emulator

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"cloud.google.com/go/bigtable"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/demo"
)

// scenariosInParallel bounds how many tables [Seed] loads at once.
const scenariosInParallel = 3

// SeedProgress reports how far [Seed] has loaded one scenario.
type SeedProgress struct {
	// Scenario is the scenario's (and table's) name.
	Scenario string
	// RowsWritten counts the rows acknowledged so far; RowsTotal is the
	// scenario's Rows.
	RowsWritten, RowsTotal int
	// Done is set on the last report of a scenario, with Err when it failed.
	Done bool
	Err  error
}

// Seed creates one table per scenario, replacing any table of that name with
// its families, and loads the scenario's rows into it, a few scenarios at a
// time. progress, if not nil, receives reports one at a time (never
// concurrently) after every batch and at the end of each scenario; it runs
// on the loading goroutines, so keep it quick. The first failure cancels the
// rest and Seed returns it; a cancelled ctx makes Seed return an error that
// wraps ctx's cause ([context.Cause]). Seed writes data: point it at an emulator only.
func Seed(ctx context.Context, admin *bigtable.AdminClient, client *bigtable.Client, scenarios []demo.Scenario, progress func(SeedProgress)) error {
	if admin == nil || client == nil {
		return errors.New("seed scenarios: need both a Bigtable admin client and a data client; emulator.Dial returns both")
	}
	seen := make(map[string]bool, len(scenarios))
	for _, sc := range scenarios {
		if !sc.Known() {
			return fmt.Errorf("seed scenario %q: not a known scenario; get scenarios from demo.Lookup or demo.Scenarios", sc.Name)
		}
		if seen[sc.Name] {
			return fmt.Errorf("seed scenarios: %q is listed twice; name each scenario once", sc.Name)
		}
		seen[sc.Name] = true
	}

	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var (
		reportMu sync.Mutex
		errMu    sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		slots    = make(chan struct{}, scenariosInParallel)
	)
	report := func(p SeedProgress) {
		if progress == nil {
			return
		}
		reportMu.Lock()
		defer reportMu.Unlock()
		progress(p)
	}

	for _, sc := range scenarios {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			var written int
			var err error
			func() {
				defer bug.Catch(&err) // a bug, said as one (exit 70), not a crash
				written, err = seedOne(ctx, admin, client, sc, report)
				report(SeedProgress{Scenario: sc.Name, RowsWritten: written, RowsTotal: sc.Rows, Done: true, Err: err})
			}()
			if err != nil {
				errMu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				errMu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	if parent.Err() != nil {
		return fmt.Errorf("seed scenarios: stopped before all tables were loaded: %w", context.Cause(parent))
	}
	return firstErr
}

// seedOne replaces the scenario's table and loads it, returning the rows
// written.
func seedOne(ctx context.Context, admin *bigtable.AdminClient, client *bigtable.Client, sc demo.Scenario, report func(SeedProgress)) (int, error) {
	if err := createTable(ctx, admin, sc); err != nil {
		return 0, err
	}
	var (
		mu      sync.Mutex
		written int
	)
	onWritten := func(rows int) {
		mu.Lock()
		written += rows
		p := SeedProgress{Scenario: sc.Name, RowsWritten: written, RowsTotal: sc.Rows}
		mu.Unlock()
		report(p)
	}
	writer := newBulkWriter(ctx, client.Open(sc.Name), sc.Name, window{sc.TimeStart, sc.TimeEnd}, onWritten)
	err := sc.Generate(writer.put)
	rows, closeErr := writer.close()
	if err == nil {
		err = closeErr
	}

	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		return written, fmt.Errorf("load scenario %q: %w", sc.Name, err)
	}
	if rows != sc.Rows {
		return written, fmt.Errorf("load scenario %q: generated %d rows but the scenario declares %d; fix the generator or Rows", sc.Name, rows, sc.Rows)
	}
	return written, nil
}

// createTable drops the scenario's table if it exists and creates it with the
// scenario's families and no garbage-collection policy.
func createTable(ctx context.Context, admin *bigtable.AdminClient, sc demo.Scenario) error {
	err := admin.DeleteTable(ctx, sc.Name)
	if err != nil && status.Code(err) != codes.NotFound {
		return fmt.Errorf("seed scenario %q: drop existing table: %w; is the emulator reachable?", sc.Name, err)
	}
	families := make(map[string]bigtable.Family, len(sc.Families))
	for _, name := range sc.Families {
		families[name] = bigtable.Family{GCPolicy: bigtable.NoGcPolicy()}
	}
	err = admin.CreateTableFromConf(ctx, &bigtable.TableConf{TableID: sc.Name, ColumnFamilies: families})
	if err != nil {
		return fmt.Errorf("seed scenario %q: create table with %d column families: %w", sc.Name, len(families), err)
	}
	return nil
}
