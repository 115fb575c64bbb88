package diagnosetest

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// reading is one metric sample of one machine.
type reading struct {
	machine string
	at      time.Time
}

// machineReadings returns 100 machines × 30 readings over the last day.
func machineReadings() []reading {
	r := newRand(1)
	var out []reading
	seen := map[int]bool{}
	for len(seen) < 100 {
		id := 1_000_000 + r.IntN(9_000_000)
		if seen[id] {
			continue
		}
		seen[id] = true
		for _, at := range sortedTimes(r, 30, demoNow.Add(-24*time.Hour), demoNow) {
			out = append(out, reading{fmt.Sprintf("machine_%07d", id), at})
		}
	}
	return out
}

func timeseriesScenarios() []Scenario {
	return []Scenario{
		{
			Name: "timeseries-reversed-ts", Good: true, Families: []string{"stats"},
			rows: func(put Put) {
				for _, m := range machineReadings() {
					put(fmt.Sprintf("%s#%019d", m.machine, int64(math.MaxInt64)-m.at.UnixMilli()), cell("stats", "reading", m.at, 90))
				}
			},
		},
		{
			Name: "timeseries-timestamp-first", Families: []string{"stats"},
			Expect: []string{"key-starts-with-timestamp", "sequential-keys"},
			rows: func(put Put) {
				readings := machineReadings()
				slices.SortStableFunc(readings, func(a, b reading) int { return a.at.Compare(b.at) })
				for _, m := range readings {
					put(fmt.Sprintf("%013d#%s", m.at.UnixMilli(), m.machine), cell("stats", "reading", m.at, 90))
				}
			},
		},
		{
			// A constant dataset tag before the time, with | delimiters:
			// the timestamp is still the first segment that varies.
			Name: "metrics-tag-then-timestamp", Families: []string{"m"},
			Expect:    []string{"key-starts-with-timestamp", "sequential-keys"},
			Locations: []Location{{"key-starts-with-timestamp", "metrics|"}, {"sequential-keys", "metrics|"}},
			rows: func(put Put) {
				readings := machineReadings()
				slices.SortStableFunc(readings, func(a, b reading) int { return a.at.Compare(b.at) })
				for _, m := range readings {
					put(fmt.Sprintf("metrics|%013d|%s", m.at.UnixMilli(), m.machine), cell("m", "v", m.at, 40))
				}
			},
		},
	}
}
