package sampler

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/bug"
)

// TestPanicInAReaderIsABugNotACrash: a panic on one of the scan's reader
// goroutines (which used to kill the process with Go's stack trace and
// exit 2) stops the scan: Scan returns what was read before it, marked
// incomplete, with an error that is the bug ([bug.Error], which the
// command line turns into exit 70), naming the range being read.
func TestPanicInAReaderIsABugNotACrash(t *testing.T) {
	conn := eventsTable(t, 4000)
	poisoned := prefixedRows(4000, testPrefixes, testWeights)[2000].key // one the scan reads
	snap, err := Scan(context.Background(), conn, "events", Options{Full: true, Concurrency: 3, readRow: func(key string) {
		if key == poisoned {
			var m map[string]int
			m[key]++
		}
	}})
	var crash *bug.Error
	if !errors.As(err, &crash) || !errors.Is(err, ErrIncomplete) {
		t.Fatalf("err = %v, want an incomplete scan stopped by a bug", err)
	}
	if !strings.Contains(err.Error(), "reading range") || !strings.Contains(err.Error(), "a bug in btviz") || !strings.Contains(crash.Site, "sampler.") {
		t.Errorf("the error does not say where: %v", err)
	}
	if snap == nil || snap.Scan.Complete || !strings.Contains(snap.Scan.Incomplete, "internal error") {
		t.Fatalf("want the rows read before it, marked incomplete: %+v", snap)
	}
}
