package record

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// slowSink takes its time over every Op, like a sink that falls behind.
type slowSink struct {
	collectingSink
	delay    time.Duration
	flushErr error
}

func (s *slowSink) Add(op *keyspace.Op) {
	time.Sleep(s.delay)
	s.collectingSink.Add(op)
}

func (s *slowSink) Flush(info FlushInfo) error {
	s.collectingSink.Flush(info)
	return s.flushErr
}

func TestRecorderFlushesPeriodicallyAndOnClose(t *testing.T) {
	sink := &collectingSink{}
	var mu sync.Mutex
	var seen []Stats
	rec := NewRecorder(sink, RecorderOptions{FlushEvery: 10 * time.Millisecond, Flushed: func(info FlushInfo, err error) {
		s := info.Stats
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, s)
	}})
	rec.add(&keyspace.Op{Table: "t", Method: keyspace.MethodReadRows})
	// Flushes come on their own, every 10 ms: wait for two (a condition,
	// so that a busy machine only makes them later).
	flushes := func() int {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		return sink.flushes
	}
	for deadline := time.Now().Add(time.Minute); flushes() < 2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d flushes in a minute with FlushEvery 10 ms, want several", flushes())
		}
	}
	periodic := flushes()
	rec.add(&keyspace.Op{Table: "t", Method: keyspace.MethodReadRows, Part: true})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if sink.flushes < periodic+1 {
		t.Errorf("Close flushed %d times in all, want at least one more than the %d periodic flushes", sink.flushes, periodic)
	}
	if len(sink.all()) != 2 {
		t.Errorf("the sink got %d ops, want both", len(sink.all()))
	}
	mu.Lock()
	defer mu.Unlock()
	if last := seen[len(seen)-1]; last.Calls != 1 || last.Parts != 1 {
		t.Errorf("the last flush reported %+v, want 1 call and 1 part", last)
	}
}

func TestRecorderReportsTheLastFlushError(t *testing.T) {
	full := errors.New("disk full")
	rec := NewRecorder(&slowSink{flushErr: full}, RecorderOptions{})
	if err := rec.Close(); !errors.Is(err, full) {
		t.Errorf("Close = %v, want the flush's error", err)
	}
}

func TestRecorderWaitsForASlowSinkAndCountsTheWait(t *testing.T) {
	sink := &slowSink{delay: 5 * time.Millisecond}
	rec := NewRecorder(sink, RecorderOptions{QueueLength: 2})
	for range 10 {
		rec.add(&keyspace.Op{Table: "t", Method: keyspace.MethodMutateRow})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	stats := rec.Stats()
	if len(sink.all()) != 10 {
		t.Errorf("the sink got %d ops, want all 10: a full queue waits, it never drops", len(sink.all()))
	}
	if stats.Waited <= 0 || stats.LongestWait <= 0 || stats.LongestWait > stats.Waited {
		t.Errorf("stats = %+v, want the waits for the slow sink counted", stats)
	}
	rec.add(&keyspace.Op{Table: "t", Method: keyspace.MethodMutateRow})
	if got := rec.Stats().Late; got != 1 {
		t.Errorf("an op after Close: Late = %d, want 1", got)
	}
}
