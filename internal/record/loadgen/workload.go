package loadgen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	"github.com/btviz/btviz/internal/demo"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Workload is one built-in traffic pattern.
type Workload struct {
	// Name is stable kebab-case, as --traffic takes it.
	Name string
	// Table is the demo scenario (and table) it runs against.
	Table string
	// Description is one line for a listing.
	Description string
	// newWorker returns the state of one worker: its next call.
	newWorker func(r *rand.Rand, clock *logicalClock) caller
}

// caller makes one call of a workload against table.
type caller interface {
	call(ctx context.Context, table *bigtable.Table) error
}

// Workloads returns every built-in workload, in a stable order.
func Workloads() []Workload {
	return []Workload{readHotspot(), hotCounter(), timestampWrites(), newcomerApp()}
}

// Lookup returns the workload called name, or an error listing them all.
func Lookup(name string) (Workload, error) {
	for _, w := range Workloads() {
		if w.Name == name {
			return w, nil
		}
	}
	var names []string
	for _, w := range Workloads() {
		names = append(names, w.Name)
	}
	return Workload{}, fmt.Errorf("no demo traffic called %q; there are: %s", name, strings.Join(names, ", "))
}

// Options tune a run; the zero value is the defaults.
type Options struct {
	// Rate is the calls per second of the whole run (default 200).
	Rate float64
	// Workers is how many calls may be in flight (default 4); each
	// worker makes Rate/Workers calls per second.
	Workers int
	// Seed makes a run repeatable: the same seed gives the same calls
	// against the same table (each worker's in order).
	Seed uint64
	// Limit stops the run after this many calls (0: run until the
	// context ends).
	Limit int64
}

// Defaults of [Options].
const (
	DefaultRate    = 200
	defaultWorkers = 4
)

// Stats count the calls of a run.
type Stats struct {
	Calls  int64
	Errors int64
}

// Run runs the workload called name against its table through client
// until ctx ends (then it returns nil) or Options.Limit calls are made.
// Calls that fail because the upstream is unavailable or slow are
// counted and the run goes on; any other failure (the table does not
// exist, a call is refused) ends it with an error that says what to do.
func Run(ctx context.Context, client *bigtable.Client, name string, opts Options) (Stats, error) {
	w, err := Lookup(name)
	if err != nil {
		return Stats{}, err
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers
	}
	table := client.Open(w.Table)
	interval := time.Duration(float64(time.Second) * float64(opts.Workers) / opts.Rate)
	// The logical clock moves as fast as the run's calls, in steps of at
	// least a millisecond (Bigtable's granularity); each worker has its
	// own lane of steps, so no two writes share a time.
	unit := max(time.Millisecond, (interval / time.Duration(opts.Workers)).Truncate(time.Millisecond))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan workerResult, opts.Workers)
	for i := range opts.Workers {
		limit := opts.Limit / int64(opts.Workers)
		if int64(i) < opts.Limit%int64(opts.Workers) {
			limit++
		}
		if opts.Limit > 0 && limit == 0 {
			results <- workerResult{}
			continue
		}
		r := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
		clock := &logicalClock{next: demo.DemoNow().Add(time.Duration(i) * unit), step: time.Duration(opts.Workers) * unit}
		go func() { results <- runWorker(ctx, table, w.newWorker(r, clock), interval, limit) }()
	}
	var total Stats
	var firstErr error
	for range opts.Workers {
		res := <-results
		total.Calls += res.stats.Calls
		total.Errors += res.stats.Errors
		if res.err != nil && firstErr == nil {
			firstErr = fmt.Errorf("demo traffic %s on table %s: %w", w.Name, w.Table, res.err)
			cancel()
		}
	}
	return total, firstErr
}

type workerResult struct {
	stats Stats
	err   error
}

// runWorker makes calls paced at interval until ctx ends or limit calls
// (0: no limit) are made.
func runWorker(ctx context.Context, table *bigtable.Table, c caller, interval time.Duration, limit int64) workerResult {
	var res workerResult
	next := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for limit == 0 || res.stats.Calls < limit {
		if wait := time.Until(next); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return res
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return res
		}
		next = next.Add(interval)
		err := c.call(ctx, table)
		res.stats.Calls++
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return res
		case transient(err):
			res.stats.Errors++
		default:
			res.err = explain(err)
			return res
		}
	}
	return res
}

// transient reports an error a workload rides out: the upstream is down
// or slow, as it is while an emulator restarts.
func transient(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted, codes.ResourceExhausted:
		return true
	}
	return errors.Is(err, context.DeadlineExceeded)
}

// explain adds what to do to an error that ends a run.
func explain(err error) error {
	if status.Code(err) == codes.NotFound {
		return fmt.Errorf("%w; `btviz seed --scenario NAME` loads the demo table", err)
	}
	return err
}

// logicalClock gives a worker's write times: one step per call, from the
// end of the demo data on, whatever the wall clock says.
type logicalClock struct {
	next time.Time
	step time.Duration
}

// tick returns the next time, at millisecond granularity as Bigtable
// timestamps need.
func (c *logicalClock) tick() time.Time {
	t := c.next.Truncate(time.Millisecond)
	c.next = c.next.Add(c.step)
	return t
}

// ring keeps the last keys a worker read, for point reads of rows known
// to exist, as an application reads what it listed.
type ring struct {
	keys []string
	next int
}

const ringSize = 256

func (r *ring) add(key string) {
	if len(r.keys) < ringSize {
		r.keys = append(r.keys, key)
		return
	}
	r.keys[r.next] = key
	r.next = (r.next + 1) % ringSize
}

func (r *ring) pick(rnd *rand.Rand) (string, bool) {
	if len(r.keys) == 0 {
		return "", false
	}
	return r.keys[rnd.IntN(len(r.keys))], true
}
