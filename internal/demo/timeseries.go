package demo

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Machine metrics, the guide's time-series example, shown two ways.
const (
	timeseriesMachines        = 400
	timeseriesReadingsPerHost = 50
	timeseriesWindow          = 24 * time.Hour
)

// machineReading is one metrics sample of one machine.
type machineReading struct {
	machine string
	at      time.Time
	value   int // bytes of the JSON reading
}

// machineReadings returns the samples both time-series scenarios store:
// [timeseriesMachines] machines named machine_NNNNNNN (seven random digits),
// each with [timeseriesReadingsPerHost] samples at distinct random times in
// the last 24 h, grouped by machine and oldest first within a machine.
func machineReadings() []machineReading {
	r := newRand("timeseries-machines")
	w := lastWindow(timeseriesWindow)
	ids := make(map[int]bool, timeseriesMachines)
	readings := make([]machineReading, 0, timeseriesMachines*timeseriesReadingsPerHost)
	for len(ids) < timeseriesMachines {
		id := 1_000_000 + r.IntN(9_000_000)
		if ids[id] {
			continue
		}
		ids[id] = true
		machine := fmt.Sprintf("machine_%07d", id)
		baseLoad := 5 + r.Float64()*60
		for _, at := range distinctTimes(r, timeseriesReadingsPerHost, w.start, w.end) {
			cpu := math.Min(100, baseLoad+r.NormFloat64()*8)
			value := measure(`{"cpu_pct":%.1f,"mem_mb":%d,"temp_c":%.1f,"load1":%.2f,"disk_io_kbps":%d}`,
				math.Max(0, cpu), 900+r.IntN(15000), 38+cpu*0.4+r.Float64()*3, cpu/25+r.Float64(), r.IntN(40000))
			readings = append(readings, machineReading{machine: machine, at: at, value: value})
		}
	}
	return readings
}

// reversedMillis is the guide's reversed timestamp, Long.MAX_VALUE minus
// the epoch milliseconds, zero-padded to 19 digits so that the newest row
// of an entity sorts first.
func reversedMillis(t time.Time) string {
	return fmt.Sprintf("%019d", int64(math.MaxInt64)-t.UnixMilli())
}

// timeseriesReversedScenario: machine metrics keyed entity first, then a
// reversed timestamp (good).
//
// Key: machine_<7 digits>#<19-digit Long.MAX_VALUE-millis>, e.g.
// machine_4223421#9223370243364407807. Rows: 20,000 (400 machines × 50
// samples). One cell stats:reading (JSON, ~90 B) per row, at the sample
// time, over the last 24 h. Every machine's newest sample is the first row
// of its range; writes spread over all 400 machine prefixes. Expects no
// finding.
func timeseriesReversedScenario() Scenario {
	w := lastWindow(timeseriesWindow)
	return Scenario{
		Name:        "timeseries-reversed-ts",
		Description: "machine metrics keyed machine#reversed-timestamp: newest first per machine, writes spread (good)",
		KeyFormat:   "machine_<id>#<Long.MAX_VALUE-millis, 19 digits>",
		Good:        true,
		Families:    []string{"stats"},
		Rows:        timeseriesMachines * timeseriesReadingsPerHost,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			for _, reading := range machineReadings() {
				key := reading.machine + "#" + reversedMillis(reading.at)
				if err := put(key, cellAt("stats", "reading", reading.at, reading.value)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// timeseriesTimestampFirstScenario: the same machine metrics keyed by
// timestamp first (bad).
//
// Key: <13-digit epoch millis>#machine_<7 digits>, e.g.
// 1793487412345#machine_4223421. Rows: 20,000, written in time order, each
// cell stamped with the key's time, so the newest writes always land at the
// end of the key space (the Key Visualizer diagonal). Expects
// key-starts-with-timestamp and sequential-keys, both table-wide.
func timeseriesTimestampFirstScenario() Scenario {
	w := lastWindow(timeseriesWindow)
	return Scenario{
		Name:        "timeseries-timestamp-first",
		Description: "the same machine metrics keyed timestamp#machine: every write hits the end of the table (bad)",
		KeyFormat:   "<epoch millis, 13 digits>#machine_<id>",
		Expect:      []string{kindKeyStartsWithTimestamp, kindSequentialKeys},
		Families:    []string{"stats"},
		Rows:        timeseriesMachines * timeseriesReadingsPerHost,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			readings := machineReadings()
			slices.SortStableFunc(readings, func(a, b machineReading) int { return a.at.Compare(b.at) })
			for _, reading := range readings {
				key := fmt.Sprintf("%013d#%s", reading.at.UnixMilli(), reading.machine)
				if err := put(key, cellAt("stats", "reading", reading.at, reading.value)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
