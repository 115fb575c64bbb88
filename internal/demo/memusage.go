package demo

import (
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Device memory readings: one legacy device rewrites a single row, the rest
// write a row per reading.
const (
	memusageDevices     = 250
	memusageReadings    = 80
	memusageVersions    = 5_000
	memusageInterval    = 15 * time.Second
	memusageWindow      = 24 * time.Hour
	memusageUpdatedRow  = "4c410523#memusage"
	memusageHotDeviceID = 0x4c410523
)

// memusageRowScenario: one device overwrites a single memusage row every
// 15 s, keeping every version (bad).
//
// Key: <8 hex device id>#memusage#<13-digit epoch millis> for 20,000
// ordinary readings (250 devices × 80, random times in the last 24 h), and
// the guide's anti-pattern row 4c410523#memusage, whose one cell
// stats:memusage has 5,000 versions, one every 15 s over the last ~21 h. The
// family has no garbage-collection policy, so every version stays. Rows:
// 20,001. Values are JSON of ~40 B. Expects frequently-updated-row at
// 4c410523#memusage.
func memusageRowScenario() Scenario {
	w := lastWindow(memusageWindow)
	return Scenario{
		Name:        "memusage-single-row",
		Description: "device memory stats: one device rewrites row 4c410523#memusage 5,000 times, others write a row per reading (bad)",
		KeyFormat:   "<device id, 8 hex>#memusage[#<epoch millis>]",
		Expect:      []string{kindFrequentlyUpdatedRow},
		Locations:   []Location{{Kind: kindFrequentlyUpdatedRow, Key: memusageUpdatedRow, Row: true}},
		Families:    []string{"stats"},
		Rows:        memusageDevices*memusageReadings + 1,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("memusage-single-row")
			type reading struct {
				key   string
				at    time.Time
				value int // bytes of the JSON reading
			}
			readings := make([]reading, 0, memusageDevices*memusageReadings)
			devices := map[uint32]bool{memusageHotDeviceID: true}
			for len(devices) <= memusageDevices {
				device := r.Uint32()
				if devices[device] {
					continue
				}
				devices[device] = true
				totalMB := pick(r, []int{2048, 4096, 8192})
				for _, at := range distinctTimes(r, memusageReadings, w.start, w.end) {
					readings = append(readings, reading{
						key:   fmt.Sprintf("%08x#memusage#%013d", device, at.UnixMilli()),
						at:    at,
						value: memoryReading(totalMB, 0.2+0.75*r.Float64()),
					})
				}
			}
			slices.SortStableFunc(readings, func(a, b reading) int { return a.at.Compare(b.at) })
			for _, reading := range readings {
				if err := put(reading.key, cellAt("stats", "memusage", reading.at, reading.value)); err != nil {
					return err
				}
			}

			// Newest version first, the order the emulator keeps them in.
			versions := make([]keyspace.Cell, memusageVersions)
			for i := range versions {
				at := w.end.Add(-time.Duration(i+1) * memusageInterval).Add(time.Duration(r.IntN(500)) * time.Millisecond)
				versions[i] = cellAt("stats", "memusage", at, memoryReading(4096, 0.55+0.2*r.Float64()))
			}
			return put(memusageUpdatedRow, versions...)
		},
	}
}

// memoryReading is the size of a small JSON memory sample of a device
// with totalMB of memory, usedFraction of it in use.
func memoryReading(totalMB int, usedFraction float64) int {
	used := int(float64(totalMB) * usedFraction)
	return measure(`{"used_mb":%d,"free_mb":%d,"total_mb":%d}`, used, totalMB-used, totalMB)
}
