package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"
	"github.com/btviz/btviz/internal/demo"
)

// The newcomer app's traffic: what the app of the newcomer-app table does
// while it runs, its writers and readers interleaved.
const (
	// newcomerWrites of calls write a sensor reading (two writers beside
	// four readers); the rest read.
	newcomerWrites = 1.0 / 3
	// Of the reads: newcomerHotPoint read one of the hot user's items,
	// newcomerConfig the config row, newcomerHotScan scan the hot user's
	// items (newcomerScanRows at most), and the rest read an item of a
	// user at random.
	newcomerHotPoint = 0.55
	newcomerConfig   = 0.15
	newcomerHotScan  = 0.10
	newcomerScanRows = 5
)

// newcomerApp: the newcomer-app table's app, live.
func newcomerApp() Workload {
	return Workload{
		Name:  "newcomer-app",
		Table: "newcomer-app",
		Description: fmt.Sprintf("the app of newcomer-app: sensors write <millis>#sensorNN rows live while readers send %.0f%% of reads to %s's items and %.0f%% to %s",
			100*(newcomerHotPoint+newcomerHotScan), demo.NewcomerHotUser, 100*newcomerConfig, demo.NewcomerConfigRow),
		newWorker: func(r *rand.Rand, clock *logicalClock) caller { return &newcomerWorker{rand: r, clock: clock} },
	}
}

// newcomerWorker is one worker of [newcomerApp]: a writer or a reader
// call at a time, in the app's proportions.
type newcomerWorker struct {
	rand  *rand.Rand
	clock *logicalClock
}

func (w *newcomerWorker) call(ctx context.Context, table *bigtable.Table) error {
	if w.rand.Float64() < newcomerWrites {
		at := w.clock.tick()
		m := bigtable.NewMutation()
		m.Set("r", "value", bigtable.Time(at), fmt.Appendf(nil, `{"c":%.2f}`, 15+w.rand.Float64()*10))
		return table.Apply(ctx, demo.NewcomerSensorKey(at, w.rand.IntN(demo.NewcomerSensors)), m)
	}
	switch x := w.rand.Float64(); {
	case x < newcomerHotPoint:
		_, err := table.ReadRow(ctx, demo.NewcomerItemKey(demo.NewcomerHotUserID, w.rand.IntN(demo.NewcomerItemsPerUser)))
		return err
	case x < newcomerHotPoint+newcomerConfig:
		_, err := table.ReadRow(ctx, demo.NewcomerConfigRow)
		return err
	case x < newcomerHotPoint+newcomerConfig+newcomerHotScan:
		return table.ReadRows(ctx, bigtable.PrefixRange(demo.NewcomerHotUser), func(bigtable.Row) bool { return true },
			bigtable.LimitRows(newcomerScanRows))
	}
	_, err := table.ReadRow(ctx, demo.NewcomerItemKey(w.rand.IntN(demo.NewcomerUsers), w.rand.IntN(demo.NewcomerItemsPerUser)))
	return err
}
