package demo

import (
	"fmt"
	"slices"
	"time"
)

// Live bus positions, keyed company#route#vehicle#time as in the guide.
const (
	busVehicles          = 400
	busPositionsPerTrack = 50
	busWindow            = 24 * time.Hour
)

// busCompany is a transit operator and the centre of its network.
type busCompany struct {
	code     string
	lat, lon float64
}

var busCompanies = []busCompany{
	{"STC", 52.1332, -106.6700},
	{"MTA", 40.7128, -74.0060},
	{"CTA", 41.8781, -87.6298},
	{"TTC", 43.6532, -79.3832},
	{"KVB", 50.9375, 6.9603},
}

var occupancies = []string{"EMPTY", "MANY_SEATS_AVAILABLE", "MANY_SEATS_AVAILABLE", "FEW_SEATS_AVAILABLE", "STANDING_ROOM_ONLY"}

// busLocationsScenario: vehicle positions keyed company#route#vehicle#time
// (good).
//
// Key: <company>#<2-digit route>#<3-digit vehicle>#<13-digit epoch millis>,
// e.g. STC#22#173#1793480112345. Rows: 20,000 (400 vehicles of 5 operators
// × 50 positions at random times in the last 24 h), one cell loc:pos (JSON
// with lat, lon, speed, heading, occupancy, ~110 B), written in time order
// as a live feed would; each write goes to its own vehicle's range. Expects
// no finding.
func busLocationsScenario() Scenario {
	w := lastWindow(busWindow)
	return Scenario{
		Name:        "bus-locations",
		Description: "live bus positions keyed company#route#vehicle#time, e.g. STC#22#173#… (good)",
		KeyFormat:   "<company>#<route, 2 digits>#<vehicle, 3 digits>#<epoch millis>",
		Good:        true,
		Families:    []string{"loc"},
		Rows:        busVehicles * busPositionsPerTrack,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("bus-locations")
			type position struct {
				key string
				at  time.Time
				pos int // bytes of the JSON position
			}
			positions := make([]position, 0, busVehicles*busPositionsPerTrack)
			vehicles := make(map[string]bool, busVehicles)
			for len(vehicles) < busVehicles {
				company := pick(r, busCompanies)
				route := 10 + r.IntN(90)
				vehicle := fmt.Sprintf("%s#%02d#%03d#", company.code, route, 100+r.IntN(900))
				if vehicles[vehicle] {
					continue
				}
				vehicles[vehicle] = true
				lat := company.lat + (r.Float64()-0.5)*0.2
				lon := company.lon + (r.Float64()-0.5)*0.3
				for _, at := range distinctTimes(r, busPositionsPerTrack, w.start, w.end) {
					lat += (r.Float64() - 0.5) * 0.01
					lon += (r.Float64() - 0.5) * 0.01
					pos := measure(`{"lat":%.5f,"lon":%.5f,"speed_kmh":%.1f,"heading":%d,"occupancy":"%s"}`,
						lat, lon, round1(r.Float64()*55), r.IntN(360), pick(r, occupancies))
					positions = append(positions, position{fmt.Sprintf("%s%013d", vehicle, at.UnixMilli()), at, pos})
				}
			}
			slices.SortStableFunc(positions, func(a, b position) int { return a.at.Compare(b.at) })
			for _, p := range positions {
				if err := put(p.key, cellAt("loc", "pos", p.at, p.pos)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
