package emulator

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"testing"
)

// digestSink is a rowSink that hashes everything a generator writes, in
// order, and checks what bulkWriter would check.
type digestSink struct {
	window  window
	hash    hash.Hash
	rows    int
	lastKey string
	bytes   int
}

func (s *digestSink) put(key string, cells ...cell) error {
	if key == "" || len(cells) == 0 {
		return fmt.Errorf("row %q with %d cells", key, len(cells))
	}
	if key != s.lastKey {
		s.rows++
		s.lastKey = key
	}
	writeString(s.hash, key)
	for _, c := range cells {
		if err := s.window.check(key, c); err != nil {
			return err
		}
		writeString(s.hash, c.family+":"+c.column)
		_ = binary.Write(s.hash, binary.BigEndian, c.ts.UnixMilli())
		s.hash.Write(c.value)
		s.bytes += len(c.value)
	}
	return nil
}

// generate runs a scenario's generator into a digestSink.
func generate(t *testing.T, sc Scenario) *digestSink {
	t.Helper()
	sink := &digestSink{window: window{sc.TimeStart, sc.TimeEnd}, hash: sha256.New()}
	if err := sc.generate(sink); err != nil {
		t.Fatalf("generate %s: %v", sc.Name, err)
	}
	return sink
}

func TestGeneratorsAreDeterministic(t *testing.T) {
	if raceEnabled {
		t.Skip("generators run on one goroutine, so the race detector has nothing to find; run without -race")
	}
	t.Parallel()
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			first, second := generate(t, sc), generate(t, sc)
			if first.rows != sc.Rows {
				t.Errorf("generated %d rows, Rows says %d", first.rows, sc.Rows)
			}
			if a, b := first.hash.Sum(nil), second.hash.Sum(nil); string(a) != string(b) {
				t.Errorf("two runs differ: %x, then %x", a, b)
			}
			t.Logf("%d rows, %.1f MB of values", first.rows, float64(first.bytes)/1e6)
		})
	}
}
