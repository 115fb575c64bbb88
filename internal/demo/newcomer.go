package demo

import (
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// A newcomer's first own table: an app that keeps three datasets in one
// table, as the schema guide recommends (a prefix per dataset), of which
// one is keyed badly.
const (
	// NewcomerUsers users of the newcomer-app table have
	// NewcomerItemsPerUser items each; NewcomerSensors sensors write its
	// readings.
	NewcomerUsers         = 2_000
	NewcomerItemsPerUser  = 10
	NewcomerSensors       = 20
	newcomerReadings      = 4_000
	newcomerItemWindow    = 30 * 24 * time.Hour
	newcomerReadingWindow = 24 * time.Hour
	// NewcomerHotUserID is the user whose items the app's readers read
	// most (the traffic workload newcomer-app), NewcomerHotUser its
	// prefix, and NewcomerConfigRow the row every reader polls.
	NewcomerHotUserID = 613
	NewcomerHotUser   = "user#u0613#"
	NewcomerConfigRow = "config#global"
	// NewcomerSensorDataset names the dataset of the sensor readings,
	// whose keys start with the time: what findings about it name.
	NewcomerSensorDataset = "<timestamp (epoch milliseconds)>#..."
)

// NewcomerSensorKey is the key of a sensor reading taken at t by sensor
// n: the time first, the guide's first anti-pattern.
func NewcomerSensorKey(t time.Time, sensor int) string {
	return fmt.Sprintf("%013d#sensor%02d", t.UnixMilli(), sensor)
}

// NewcomerItemKey is the key of item i of user u.
func NewcomerItemKey(user, item int) string {
	return fmt.Sprintf("user#u%04d#item#%03d", user, item)
}

// newcomerScenario: an app's table of three datasets — users' items, one
// config row and sensor readings keyed by the time first (bad).
//
// Keys: user#u<4 digits>#item#<3 digits> for 2,000 users × 10 items, each
// item one cell item:json (80–300 B) added at a random time over the
// last 30 days; config#global, one cell c:flags with 5 versions; and
// <13-digit epoch millis>#sensor<2 digits> for 4,000 readings of 20
// sensors over the last 24 h, one cell r:value each, written as they were
// taken. The datasets are 83%, a row and 17% of the table; the users'
// dataset is the largest and is written evenly, so it is no hotspot. The
// sensor keys lead with the time: every new reading lands at the end of
// the table. Expects key-starts-with-timestamp and sequential-keys at the
// sensor readings' dataset, and nothing on user# or config#. The traffic
// workload newcomer-app adds the app's reads (most of them to one user's
// items and to config#global) and live sensor writes.
func newcomerScenario() Scenario {
	w := lastWindow(newcomerItemWindow)
	return Scenario{
		Name:        "newcomer-app",
		Description: "an app's table of three datasets: user items, a config row, sensor readings keyed <millis>#sensor (bad)",
		KeyFormat:   "user#u<user>#item#<item> | config#global | <epoch millis>#sensor<n>",
		Expect:      []string{kindKeyStartsWithTimestamp, kindSequentialKeys},
		Locations: []Location{
			{Kind: kindKeyStartsWithTimestamp, Dataset: NewcomerSensorDataset},
			{Kind: kindSequentialKeys, Dataset: NewcomerSensorDataset},
		},
		Families:  []string{"c", "item", "r"},
		Rows:      NewcomerUsers*NewcomerItemsPerUser + 1 + newcomerReadings,
		TimeStart: w.start,
		TimeEnd:   w.end,
		generate: func(put Put) error {
			r := newRand("newcomer-app")
			type row struct {
				key   string
				at    time.Time
				cells []keyspace.Cell
			}
			rows := make([]row, 0, NewcomerUsers*NewcomerItemsPerUser+newcomerReadings)
			for u := range NewcomerUsers {
				for item := range NewcomerItemsPerUser {
					at := randomTime(r, w.start, w.end)
					rows = append(rows, row{NewcomerItemKey(u, item), at, []keyspace.Cell{cellAt("item", "json", at, 80+r.IntN(220))}})
				}
			}
			readings := lastWindow(newcomerReadingWindow)
			for _, at := range distinctTimes(r, newcomerReadings, readings.start, readings.end) {
				sensor := r.IntN(NewcomerSensors)
				rows = append(rows, row{NewcomerSensorKey(at, sensor), at, []keyspace.Cell{cellAt("r", "value", at, 20+r.IntN(20))}})
			}
			slices.SortStableFunc(rows, func(a, b row) int { return a.at.Compare(b.at) })
			for _, row := range rows {
				if err := put(row.key, row.cells...); err != nil {
					return err
				}
			}
			versions := distinctTimes(r, 5, w.start, w.end)
			config := make([]keyspace.Cell, len(versions))
			for i, at := range versions {
				config[len(versions)-1-i] = cellAt("c", "flags", at, 200+r.IntN(100))
			}
			return put(NewcomerConfigRow, config...)
		},
	}
}
