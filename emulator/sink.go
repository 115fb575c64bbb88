package emulator

import (
	"fmt"
	"time"
)

// cell is one value a scenario writes: family:column at timestamp ts.
type cell struct {
	family, column string
	ts             time.Time
	value          []byte
}

// rowSink receives a scenario's rows. A row whose cells do not fit one call
// (the oversized row) arrives in consecutive calls with the same key; any
// other key is new. put may keep cells and their values until the sink is
// closed, so a generator must not reuse a value slice it has handed over,
// unless the slice is never changed again.
type rowSink interface {
	put(key string, cells ...cell) error
}

// window is the half-open interval of cell timestamps a scenario writes.
type window struct{ start, end time.Time }

// lastWindow returns the window of length d ending at [DemoNow].
func lastWindow(d time.Duration) window {
	return window{start: DemoNow().Add(-d), end: DemoNow()}
}

// check reports a cell timestamp that falls outside the window or is not
// millisecond-granular, as Bigtable requires.
func (w window) check(key string, c cell) error {
	if c.ts.Before(w.start) || !c.ts.Before(w.end) {
		return fmt.Errorf("row %q cell %s:%s at %s is outside the scenario window [%s, %s)",
			key, c.family, c.column, c.ts.Format(time.RFC3339Nano), w.start.Format(time.RFC3339), w.end.Format(time.RFC3339))
	}
	if c.ts.Nanosecond()%int(time.Millisecond) != 0 {
		return fmt.Errorf("row %q cell %s:%s at %s is not millisecond-granular", key, c.family, c.column, c.ts.Format(time.RFC3339Nano))
	}
	return nil
}
