package session

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/source"
)

// loadEventBuffer is how many load events may wait for the program.
const loadEventBuffer = 64

// DemoSource is the [source.Source] of `btviz --emulator` without an
// emulator address: it starts the embedded emulator and loads the demo
// scenarios into it in the background, so that the picker can list them at
// once and fill in as each finishes. Close it when the view is done.
type DemoSource struct {
	*ConnSource
	server    *emulator.Server
	conn      *connect.Conn
	scenarios []demo.Scenario

	mu     sync.Mutex
	status map[string]source.LoadProgress

	events chan source.LoadProgress
	cancel context.CancelFunc
	done   chan struct{}
}

// NewDemoSource starts the embedded emulator and begins loading
// scenarios (all of them when nil) into instance "btviz" of project
// "local"; a table is scanned with opts. It returns as soon as the emulator
// answers; loading goes on in the background and is reported on
// [DemoSource.Loads].
func NewDemoSource(ctx context.Context, scenarios []demo.Scenario, opts sampler.Options) (*DemoSource, error) {
	if scenarios == nil {
		scenarios = demo.Scenarios()
	}
	server, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	target := connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: server.Addr}
	conn, err := connect.Open(ctx, target)
	if err != nil {
		server.Close()
		return nil, fmt.Errorf("connecting to the embedded emulator: %w", err)
	}
	seedCtx, cancel := context.WithCancel(context.Background())
	b := &DemoSource{
		ConnSource: NewConnSource(conn, opts),
		server:     server, conn: conn, scenarios: scenarios,
		status: make(map[string]source.LoadProgress, len(scenarios)),
		events: make(chan source.LoadProgress, loadEventBuffer),
		cancel: cancel, done: make(chan struct{}),
	}
	for _, sc := range scenarios {
		b.status[sc.Name] = source.LoadProgress{Table: sc.Name, RowsTotal: sc.Rows}
	}
	go b.seed(seedCtx)
	return b, nil
}

// seed loads every scenario and closes the event channel when done.
func (b *DemoSource) seed(ctx context.Context) {
	defer close(b.done)
	defer close(b.events)
	// A failure reaches the picker with the table it stopped (Err of its
	// load event); nothing else waits for it.
	_ = emulator.Seed(ctx, b.conn.Admin, b.conn.Client, b.scenarios, func(p emulator.SeedProgress) {
		event := source.LoadProgress{Table: p.Scenario, RowsWritten: p.RowsWritten, RowsTotal: p.RowsTotal, Started: true, Done: p.Done, Err: p.Err}
		b.mu.Lock()
		b.status[p.Scenario] = event
		b.mu.Unlock()
		select {
		case b.events <- event:
		case <-ctx.Done():
		}
	})
}

// Where names the embedded emulator.
func (b *DemoSource) Where() string {
	return b.conn.Target.Where() + ", embedded, demo scenarios"
}

// ListTables lists the demo scenarios in their stable order (good and bad
// variants of a pattern next to each other) with their descriptions and
// load status, whether or not they are loaded yet.
func (b *DemoSource) ListTables(context.Context) ([]source.TableInfo, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	tables := make([]source.TableInfo, len(b.scenarios))
	for i, sc := range b.scenarios {
		tables[i] = source.TableInfo{Name: sc.Name, Families: slices.Clone(sc.Families), Description: sc.Description}
		if status := b.status[sc.Name]; !status.Done || status.Err != nil {
			tables[i].Loading = &status
		}
	}
	return tables, nil
}

// TableSizes returns the sizes of the named tables that are loaded.
func (b *DemoSource) TableSizes(ctx context.Context, tables []string) (map[string]int64, error) {
	b.mu.Lock()
	ready := make([]string, 0, len(tables))
	for _, name := range tables {
		if status := b.status[name]; status.Done && status.Err == nil {
			ready = append(ready, name)
		}
	}
	b.mu.Unlock()
	if len(ready) == 0 {
		return map[string]int64{}, nil
	}
	return b.ConnSource.TableSizes(ctx, ready)
}

// Scan reads a demo table; it refuses one that is still loading.
func (b *DemoSource) Scan(ctx context.Context, table string, within *source.Range, watch source.Watch) (*keyspace.Snapshot, error) {
	b.mu.Lock()
	status, known := b.status[table]
	b.mu.Unlock()
	if known && (!status.Done || status.Err != nil) {
		return nil, fmt.Errorf("table %s is still loading (%.0f%%); open it when the picker shows it ready", escape.Quote(table), status.Share()*100)
	}
	return b.ConnSource.Scan(ctx, table, within, watch)
}

// Loads delivers the seeding progress, one event per scenario batch; it is
// closed when every scenario is loaded (or loading failed).
func (b *DemoSource) Loads() <-chan source.LoadProgress { return b.events }

// Close stops loading, closes the connection and stops the emulator.
func (b *DemoSource) Close() error {
	b.cancel()
	<-b.done
	err := b.conn.Close()
	b.server.Close()
	return err
}
