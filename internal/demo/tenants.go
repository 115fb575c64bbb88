package demo

import (
	"fmt"
	"math"
	"time"
)

// A multi-tenant IoT platform: one row per device per day, tenant first.
const (
	tenantDevices = 1_000
	tenantDays    = 20
)

var tenantNames = []string{
	"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne",
	"soylent", "vandelay", "oscorp", "aperture", "blackmesa", "gringotts", "dunder", "monarch", "nakatomi", "paperstreet",
	"pied-piper", "prestige", "sirius", "tessier", "virtucon", "weyland", "zorg", "axiom", "bluth", "cogswell",
	"duff", "ecorp", "frobozz", "gekko", "ingen", "krusty", "lacuna", "massive", "octan", "planet-express",
}

var deviceKinds = []string{"thermostat", "meter", "camera", "lock", "sensor"}

// multitenantScenario: per-device daily summaries keyed
// tenant#device#id#day (good).
//
// Key: <tenant>#<device kind>#<4-digit device id>#<yyyymmdd>, e.g.
// acme#thermostat#0173#20261030; dropping a tenant is one prefix delete.
// Rows: 20,000 (1,000 devices × 20 days) over 40 tenants with a mild skew
// (the largest holds about 6 % of the rows), one cell m:summary (JSON,
// ~100 B) stamped within the day. Written day by day. Expects no finding.
func multitenantScenario() Scenario {
	w := lastWindow(tenantDays * 24 * time.Hour)
	return Scenario{
		Name:        "multitenant-devices",
		Description: "IoT daily summaries keyed tenant#device#id#yyyymmdd: 40 tenants, none dominant (good)",
		KeyFormat:   "<tenant>#<device kind>#<device id, 4 digits>#<yyyymmdd>",
		Good:        true,
		Families:    []string{"m"},
		Rows:        tenantDevices * tenantDays,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("multitenant-devices")
			weights := zipfWeights(len(tenantNames), 0.35)
			nextID := make(map[string]int)
			prefixes := make([]string, tenantDevices)
			for i := range prefixes {
				tenant := tenantNames[pickWeighted(r, weights)]
				nextID[tenant] += 1 + r.IntN(7)
				prefixes[i] = fmt.Sprintf("%s#%s#%04d#", tenant, pick(r, deviceKinds), nextID[tenant])
			}
			for day := range tenantDays {
				dayStart := w.start.Add(time.Duration(day) * 24 * time.Hour)
				for _, prefix := range prefixes {
					at := randomTime(r, dayStart, dayStart.Add(24*time.Hour))
					summary := measure(`{"samples":%d,"min":%.1f,"max":%.1f,"avg":%.2f,"battery_pct":%d,"alerts":%d}`,
						1400+r.IntN(40), 15+r.Float64()*5, 22+r.Float64()*6, 19+r.Float64()*3, 20+r.IntN(81), int(math.Max(0, r.NormFloat64())))
					if err := put(prefix+dayStart.Format("20060102"), cellAt("m", "summary", at, summary)); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}
