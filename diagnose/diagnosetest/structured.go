package diagnosetest

import (
	"fmt"
	"slices"
	"time"
)

// structuredScenarios are the guide's field-promotion examples: all good.
func structuredScenarios() []Scenario {
	return []Scenario{
		{
			Name: "phone-device-day", Good: true, Families: []string{"stats"},
			rows: func(put Put) {
				r := newRand(6)
				var devices []string
				for i := range 100 {
					kind := []string{"phone", "phone", "phone", "phone", "phone", "tablet", "tablet", "tablet", "watch", "watch"}[i%10]
					devices = append(devices, fmt.Sprintf("%s#%08x#", kind, r.Uint32()))
				}
				for day := range 30 {
					dayStart := demoNow.Add(time.Duration(day-30) * 24 * time.Hour)
					for _, d := range devices {
						at := randomTime(r, dayStart, dayStart.Add(24*time.Hour))
						put(d+dayStart.Format("20060102"),
							cell("stats", "connected_cell", at, 1), cell("stats", "connected_wifi", at, 1), cell("stats", "os_build", at, 15))
					}
				}
			},
		},
		{
			Name: "multitenant-devices", Good: true, Families: []string{"m"},
			rows: func(put Put) {
				r := newRand(7)
				tenants := []string{"acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne",
					"soylent", "vandelay", "oscorp", "aperture", "blackmesa", "gringotts", "dunder", "monarch", "nakatomi", "paperstreet",
					"pied-piper", "prestige", "sirius", "tessier", "virtucon", "weyland", "zorg", "axiom", "bluth", "cogswell",
					"duff", "ecorp", "frobozz", "gekko", "ingen", "krusty", "lacuna", "massive", "octan", "planet-express"}
				next := map[string]int{}
				var prefixes []string
				for range 100 {
					tenant := pick(r, tenants)
					next[tenant] += 1 + r.IntN(7)
					prefixes = append(prefixes, fmt.Sprintf("%s#%s#%04d#", tenant, pick(r, []string{"thermostat", "meter", "camera", "lock", "sensor"}), next[tenant]))
				}
				for day := range 30 {
					dayStart := demoNow.Add(time.Duration(day-30) * 24 * time.Hour)
					for _, p := range prefixes {
						put(p+dayStart.Format("20060102"), cell("m", "summary", randomTime(r, dayStart, dayStart.Add(24*time.Hour)), 100))
					}
				}
			},
		},
		{
			Name: "bus-locations", Good: true, Families: []string{"loc"},
			rows: func(put Put) {
				r := newRand(8)
				type position struct {
					key string
					at  time.Time
				}
				var positions []position
				for range 40 {
					vehicle := fmt.Sprintf("%s#%02d#%03d#", pick(r, []string{"STC", "MTA", "CTA", "TTC", "KVB"}), 10+r.IntN(90), 100+r.IntN(900))
					for _, at := range sortedTimes(r, 75, demoNow.Add(-24*time.Hour), demoNow) {
						positions = append(positions, position{fmt.Sprintf("%s%013d", vehicle, at.UnixMilli()), at})
					}
				}
				slices.SortStableFunc(positions, func(a, b position) int { return a.at.Compare(b.at) })
				for _, p := range positions {
					put(p.key, cell("loc", "pos", p.at, 110))
				}
			},
		},
	}
}
