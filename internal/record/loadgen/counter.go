package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"

	"cloud.google.com/go/bigtable"
)

// The hot counter's shape.
const (
	// counterRow is the one row every like increments.
	counterRow    = "counter#likes"
	counterFamily = "event"
	// counterShare of calls increment the counter; the rest write the
	// like itself as a new event row of some user's post.
	counterShare = 0.5
)

// hotCounter: a global like counter next to the likes.
func hotCounter() Workload {
	return Workload{
		Name:  "hot-counter",
		Table: "social-celebrity",
		Description: fmt.Sprintf("every like writes an event row of some user's post and increments one counter row, %s: half of all writes hit one row",
			counterRow),
		newWorker: func(r *rand.Rand, clock *logicalClock) caller { return &liker{rand: r, clock: clock} },
	}
}

// liker is one worker of [hotCounter]: it alternates between writing a
// like and counting it.
type liker struct {
	rand  *rand.Rand
	clock *logicalClock
}

func (l *liker) call(ctx context.Context, table *bigtable.Table) error {
	if l.rand.Float64() < counterShare {
		m := bigtable.NewReadModifyWrite()
		m.Increment(counterFamily, "count", 1)
		_, err := table.ApplyReadModifyWrite(ctx, counterRow, m)
		return err
	}
	// An event on a post of a user whose handle spreads over the
	// alphabet, as the demo table's users do.
	at := l.clock.tick()
	handle := make([]byte, 8)
	for i := range handle {
		handle[i] = byte('a' + l.rand.IntN(26))
	}
	key := fmt.Sprintf("user#%s#p%06d#%013d", handle, l.rand.IntN(1_000_000), at.UnixMilli())
	m := bigtable.NewMutation()
	m.Set(counterFamily, "payload", bigtable.Time(at), []byte(`{"type":"like","client":"loadgen"}`))
	return table.Apply(ctx, key, m)
}
