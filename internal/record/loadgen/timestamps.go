package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"
)

// machines is how many machines report in [timestampWrites].
const machines = 400

// timestampWrites: machine metrics keyed by time first.
func timestampWrites() Workload {
	return Workload{
		Name:        "timestamp-first-writes",
		Table:       "timeseries-timestamp-first",
		Description: "machines report metrics as new rows keyed <epoch millis>#machine: every write lands at the end of the key space",
		newWorker:   func(r *rand.Rand, clock *logicalClock) caller { return &reporter{rand: r, clock: clock} },
	}
}

// reporter is one worker of [timestampWrites].
type reporter struct {
	rand  *rand.Rand
	clock *logicalClock
}

func (w *reporter) call(ctx context.Context, table *bigtable.Table) error {
	at := w.clock.tick()
	key := fmt.Sprintf("%013d#machine_%07d", at.UnixMilli(), 1_000_000+w.rand.IntN(machines))
	value := fmt.Appendf(nil, `{"cpu_pct":%.1f,"mem_mb":%d}`, w.rand.Float64()*100, 900+w.rand.IntN(15000))
	m := bigtable.NewMutation()
	m.Set("stats", "reading", bigtable.Time(at), value)
	return table.Apply(ctx, key, m)
}
