package demo

import (
	"fmt"
	"time"
)

// Phone and tablet connectivity stats, one row per device per day: the
// guide's field-promotion example.
const (
	phoneDevices = 1_000
	phoneDays    = 20
)

var osBuilds = []string{"PQ2A.190405.003", "TQ3A.230901.001", "UP1A.231005.007", "AP2A.240905.003", "BP1A.250305.019"}

// phoneDeviceDayScenario: device stats keyed type#device#day (good).
//
// Key: <phone|tablet|watch>#<8 hex device id>#<yyyymmdd>, e.g.
// phone#4c410523#20261015, general to specific. Rows: 20,000 (1,000
// devices × 20 days, devices 50 % phones, 30 % tablets, 20 % watches), each
// with three cells stats:connected_cell, stats:connected_wifi ("0"/"1") and
// stats:os_build, stamped within that day. Written day by day, so each day's
// writes touch every device's range. Expects no finding.
func phoneDeviceDayScenario() Scenario {
	w := lastWindow(phoneDays * 24 * time.Hour)
	return Scenario{
		Name:        "phone-device-day",
		Description: "device stats keyed type#device#yyyymmdd, one row per device per day (good)",
		KeyFormat:   "<phone|tablet|watch>#<device id, 8 hex>#<yyyymmdd>",
		Good:        true,
		Families:    []string{"stats"},
		Rows:        phoneDevices * phoneDays,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("phone-device-day")
			type device struct{ prefix, build string }
			devices := make([]device, 0, phoneDevices)
			seen := make(map[uint32]bool, phoneDevices)
			for len(devices) < phoneDevices {
				id := r.Uint32()
				if seen[id] {
					continue
				}
				seen[id] = true
				kind := "phone"
				switch n := len(devices) % 10; {
				case n >= 8:
					kind = "watch"
				case n >= 5:
					kind = "tablet"
				}
				devices = append(devices, device{fmt.Sprintf("%s#%08x#", kind, id), pick(r, osBuilds)})
			}
			for day := range phoneDays {
				dayStart := w.start.Add(time.Duration(day) * 24 * time.Hour)
				dayEnd := dayStart.Add(24 * time.Hour)
				for i := range devices {
					d := &devices[i]
					if r.IntN(40) == 0 {
						d.build = pick(r, osBuilds) // an update
					}
					key := d.prefix + dayStart.Format("20060102")
					err := put(key,
						cellAt("stats", "connected_cell", randomTime(r, dayStart, dayEnd), measure("%d", r.IntN(5)/4)),
						cellAt("stats", "connected_wifi", randomTime(r, dayStart, dayEnd), measure("%d", 1-r.IntN(4)/3)),
						cellAt("stats", "os_build", randomTime(r, dayStart, dayEnd), len(d.build)),
					)
					if err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}
