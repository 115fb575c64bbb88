package emulator

import (
	"fmt"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// window is the half-open interval of cell timestamps a scenario writes.
type window struct{ start, end time.Time }

// check reports a cell timestamp that falls outside the window or is not
// millisecond-granular, as Bigtable requires.
func (w window) check(key string, c keyspace.Cell) error {
	ts := time.UnixMicro(c.Timestamp).UTC()
	if ts.Before(w.start) || !ts.Before(w.end) {
		return fmt.Errorf("row %q cell %s:%s at %s is outside the scenario window [%s, %s)",
			key, c.Family, c.Qualifier, ts.Format(time.RFC3339Nano), w.start.Format(time.RFC3339), w.end.Format(time.RFC3339))
	}
	if c.Timestamp%1000 != 0 {
		return fmt.Errorf("row %q cell %s:%s at %s is not millisecond-granular", key, c.Family, c.Qualifier, ts.Format(time.RFC3339Nano))
	}
	return nil
}

// fillerAlphabet is what materialized values are made of: printable, so
// that a value read back with cbt shows as filler, not as garbage.
const fillerAlphabet = "btviz demo value; the scenario gives its size only. "

// fillerMinBytes is the smallest buffer a filler allocates: most demo
// values are far smaller, so one buffer serves them all.
const fillerMinBytes = 4096

// filler hands out values of any size, all slices of one read-only buffer
// that is replaced by a larger one when a larger value is asked for.
// Slices handed out are never written again, so a writer may keep them
// until its batch is sent.
type filler struct{ buf []byte }

// value returns size bytes of filler.
func (f *filler) value(size int64) []byte {
	if int64(len(f.buf)) < size {
		buf := make([]byte, max(size, fillerMinBytes))
		for i := range buf {
			buf[i] = fillerAlphabet[i%len(fillerAlphabet)]
		}
		f.buf = buf
	}
	return f.buf[:size]
}
