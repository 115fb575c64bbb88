package demo

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestTables returns the tables only tests build, all [Scenario.TestOnly]:
// shapes the demo has no table for (a row of 100,000 columns, 5 KB keys,
// a skewed tablet map of a real instance) and demo data keyed with other
// delimiters, so that the diagnostics are seen to read a:b:c and a|b|c
// keys as well as a#b#c ones.
func TestTables() []Scenario {
	return []Scenario{
		celebrityColonTable(),
		usersSequentialColonTable(),
		metricsTagThenTimestampTable(),
		unpaddedItemsPipeTable(),
		wideRowTable(),
		longRowKeysTable(),
		tabletSkewTable(),
	}
}

// Named returns the demo scenario or test table called name.
func Named(name string) (Scenario, bool) {
	for _, sc := range slices.Concat(Scenarios(), TestTables()) {
		if sc.Name == name {
			return sc, true
		}
	}
	return Scenario{}, false
}

// celebrityColonTable: social-celebrity's events keyed
// feed:user:<handle>:<post>:<epoch millis>, the celebrity three segments
// deep. Expects hot-key-range at feed:user:mila_rosewood:.
func celebrityColonTable() Scenario {
	sc := celebrityScenario()
	sc.Name, sc.TestOnly = "social-celebrity-colon", true
	sc.Description = "social-celebrity's feed keyed feed:user:handle:post:time"
	sc.KeyFormat = "feed:user:<handle>:<post>:<epoch millis>"
	sc.Locations = []Location{{Kind: kindHotKeyRange, Key: "feed:user:" + celebrityHandle + ":"}}
	sc.generate = func(put Put) error {
		for _, e := range feedEvents() {
			if err := put("feed:"+strings.ReplaceAll(e.logicalKey, "#", ":"), cellAt("event", "payload", e.at, e.payload)); err != nil {
				return err
			}
		}
		return nil
	}
	return sc
}

// usersSequentialColonTable: users-sequential-ids' accounts behind two
// constant tags, app:users:<8-digit ID>. Expects sequential-numeric-id and
// sequential-keys at app:users:.
func usersSequentialColonTable() Scenario {
	sc := usersSequentialScenario()
	sc.Name, sc.TestOnly = "users-sequential-ids-colon", true
	sc.Description = "users-sequential-ids' accounts keyed app:users:<id>"
	sc.KeyFormat = "app:users:<8-digit increasing user ID>"
	sc.Locations = []Location{{Kind: kindSequentialNumericID, Key: "app:users:"}, {Kind: kindSequentialKeys, Key: "app:users:"}}
	sc.generate = func(put Put) error {
		for _, s := range signups() {
			if err := put(fmt.Sprintf("app:users:%d", s.id), cellAt("profile", "json", s.at, s.profile)); err != nil {
				return err
			}
		}
		return nil
	}
	return sc
}

// metricsTagThenTimestampTable: timeseries-timestamp-first's readings
// behind a constant dataset tag, metrics|<epoch millis>|machine_<id>: the
// timestamp is still the first segment that varies. Expects
// key-starts-with-timestamp and sequential-keys at metrics|.
func metricsTagThenTimestampTable() Scenario {
	sc := timeseriesTimestampFirstScenario()
	sc.Name, sc.TestOnly = "metrics-tag-then-timestamp", true
	sc.Description = "timeseries-timestamp-first's readings keyed metrics|time|machine"
	sc.KeyFormat = "metrics|<epoch millis, 13 digits>|machine_<id>"
	sc.Locations = []Location{{Kind: kindKeyStartsWithTimestamp, Key: "metrics|"}, {Kind: kindSequentialKeys, Key: "metrics|"}}
	sc.generate = func(put Put) error {
		readings := machineReadings()
		slices.SortStableFunc(readings, func(a, b machineReading) int { return a.at.Compare(b.at) })
		for _, reading := range readings {
			key := fmt.Sprintf("metrics|%013d|%s", reading.at.UnixMilli(), reading.machine)
			if err := put(key, cellAt("stats", "reading", reading.at, reading.value)); err != nil {
				return err
			}
		}
		return nil
	}
	return sc
}

// Test tables of their own.
const (
	pipeOrders       = 2_000
	pipeMaxItems     = 15
	wideRowFriends   = 100_000
	wideRowUsers     = 300
	wideRowKey       = "user#hub"
	longKeyRows      = 300
	longKeyBytes     = 4_990
	skewAccounts     = 3_000
	skewAccountStep  = 33
	skewTabletFactor = 20
	testTableWindow  = 30 * 24 * time.Hour
)

// unpaddedItemsPipeTable: order lines keyed order|<6-digit order>|item|<n>
// with the item number unpadded deep in a | key. Expects unpadded-number.
func unpaddedItemsPipeTable() Scenario {
	w := lastWindow(testTableWindow)
	itemsOf := func(order int) int { return 1 + order%pipeMaxItems }
	rows := 0
	for i := range pipeOrders {
		rows += itemsOf(i)
	}
	return Scenario{
		Name:        "unpadded-items-pipe",
		Description: "order lines keyed order|<order>|item|<n>, the item number unpadded",
		KeyFormat:   "order|<order, 6 digits>|item|<item, 1–2 digits>",
		Expect:      []string{kindUnpaddedNumber},
		Families:    []string{"o"},
		Rows:        rows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		generate: func(put Put) error {
			r := newRand("unpadded-items-pipe")
			seen := make(map[int]bool, pipeOrders)
			for i := range pipeOrders {
				order := 100_000 + r.IntN(900_000)
				for seen[order] {
					order = 100_000 + r.IntN(900_000)
				}
				seen[order] = true
				at := randomTime(r, w.start, w.end)
				for item := 1; item <= itemsOf(i); item++ {
					if err := put(fmt.Sprintf("order|%06d|item|%d", order, item), cellAt("o", "line", at, 60)); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

// wideRowTable: a friends list kept as one column per friend, where one
// hub user has 100,000 friends in row user#hub. Expects wide-row there.
func wideRowTable() Scenario {
	w := lastWindow(testTableWindow)
	return Scenario{
		Name:        "wide-row",
		Description: "friend lists with one column per friend; user#hub has 100,000",
		KeyFormat:   "user#<4 digits>",
		Expect:      []string{kindWideRow},
		Locations:   []Location{{Kind: kindWideRow, Key: wideRowKey, Row: true}},
		Families:    []string{"friends"},
		Rows:        wideRowUsers + 1,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		generate: func(put Put) error {
			r := newRand("wide-row")
			for i := range wideRowUsers {
				at := randomTime(r, w.start, w.end)
				if err := put(fmt.Sprintf("user#%04d", i), cellAt("friends", "f0001", at, 1), cellAt("friends", "f0002", at, 1)); err != nil {
					return err
				}
			}
			at := randomTime(r, w.start, w.end)
			friends := make([]keyspace.Cell, wideRowFriends)
			for i := range friends {
				friends[i] = cellAt("friends", fmt.Sprintf("f%06d", i), at, 1)
			}
			return put(wideRowKey, friends...)
		},
	}
}

// longRowKeysTable: documents keyed by a path of about 5 KB, past
// Bigtable's 4 KB key limit. Expects long-row-key.
func longRowKeysTable() Scenario {
	w := lastWindow(testTableWindow)
	return Scenario{
		Name:        "long-row-keys",
		Description: "documents keyed doc#<5 KB path>: keys past the 4 KB limit",
		KeyFormat:   "doc#<4,990-byte path><5 digits>",
		Expect:      []string{kindLongRowKey},
		Families:    []string{"d"},
		Rows:        longKeyRows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		generate: func(put Put) error {
			r := newRand("long-row-keys")
			path := strings.Repeat("chapter-section-paragraph-", longKeyBytes/26+1)[:longKeyBytes]
			for i := range longKeyRows {
				if err := put(fmt.Sprintf("doc#%s%05d", path, i), cellAt("d", "body", randomTime(r, w.start, w.end), 300)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// tabletSkewTable: accounts on a real instance whose fourth of six tablets
// holds twenty times the bytes of the others. Expects tablet-skew.
func tabletSkewTable() Scenario {
	w := lastWindow(testTableWindow)
	bounds := []string{"", "acct#16500", "acct#33000", "acct#49500", "acct#66000", "acct#82500", ""}
	tablets := make([]keyspace.Range, len(bounds)-1)
	for i := range tablets {
		tablets[i] = keyspace.Range{Start: keyspace.Key(bounds[i]), End: keyspace.Key(bounds[i+1]), SampledBytes: 1_000_000}
	}
	tablets[3].SampledBytes *= skewTabletFactor
	return Scenario{
		Name:        "tablet-skew",
		Description: "accounts on Cloud Bigtable, one tablet twenty times its neighbours",
		KeyFormat:   "acct#<5 digits>",
		Expect:      []string{kindTabletSkew},
		Families:    []string{"d"},
		Rows:        skewAccounts,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		Tablets:     tablets,
		generate: func(put Put) error {
			r := newRand("tablet-skew")
			for i := range skewAccounts {
				if err := put(fmt.Sprintf("acct#%05d", i*skewAccountStep), cellAt("d", "v", randomTime(r, w.start, w.end), 200)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
