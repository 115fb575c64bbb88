package diagnosetest

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"
)

// CelebrityHandle is the user holding 38% of the social scenarios' rows.
const CelebrityHandle = "mila_rosewood"

// feedEvent is one activity-feed event of a user.
type feedEvent struct {
	handle string
	at     time.Time
}

// feedEvents returns 3,000 events over the last 7 days: 38% for the
// celebrity, 45% of hers in the last day, the rest spread over 200 users.
func feedEvents() []feedEvent {
	r := newRand(5)
	const total, celebrity = 3000, 3000 * 38 / 100
	start, recent := demoNow.Add(-7*24*time.Hour), demoNow.Add(-24*time.Hour)
	handles := make([]string, 200)
	for i := range handles {
		handles[i] = fmt.Sprintf("%s_%s%d", pick(r, firstNames), pick(r, lastNames), i)
	}
	var events []feedEvent
	for _, at := range sortedTimes(r, celebrity-celebrity*45/100, start, recent) {
		events = append(events, feedEvent{CelebrityHandle, at})
	}
	for _, at := range sortedTimes(r, celebrity*45/100, recent, demoNow) {
		events = append(events, feedEvent{CelebrityHandle, at})
	}
	for range total - celebrity {
		events = append(events, feedEvent{pick(r, handles), randomTime(r, start, demoNow)})
	}
	slices.SortStableFunc(events, func(a, b feedEvent) int { return a.at.Compare(b.at) })
	return events
}

// SaltedKey prefixes a logical key with FNV-1a(key) mod buckets and "#",
// as the salted scenario and the emulator's do.
func SaltedKey(logical string, buckets uint32) string {
	h := fnv.New32a()
	h.Write([]byte(logical))
	return fmt.Sprintf("%d#%s", h.Sum32()%buckets, logical)
}

func socialScenarios() []Scenario {
	logical := func(e feedEvent) string { return fmt.Sprintf("user#%s#%013d", e.handle, e.at.UnixMilli()) }
	return []Scenario{
		{
			Name: "social-celebrity", Families: []string{"event"},
			Expect:    []string{"hot-key-range"},
			Locations: []Location{{"hot-key-range", "user#" + CelebrityHandle + "#"}},
			rows: func(put Put) {
				for _, e := range feedEvents() {
					put(logical(e), cell("event", "payload", e.at, 80))
				}
			},
		},
		{
			Name: "social-celebrity-salted", Good: true, Families: []string{"event"},
			rows: func(put Put) {
				for _, e := range feedEvents() {
					put(SaltedKey(logical(e), 8), cell("event", "payload", e.at, 80))
				}
			},
		},
		{
			// The celebrity three segments deep, with : delimiters.
			Name: "social-celebrity-colon", Families: []string{"event"},
			Expect:    []string{"hot-key-range"},
			Locations: []Location{{"hot-key-range", "feed:user:" + CelebrityHandle + ":"}},
			rows: func(put Put) {
				for _, e := range feedEvents() {
					put(fmt.Sprintf("feed:user:%s:%013d", e.handle, e.at.UnixMilli()), cell("event", "payload", e.at, 80))
				}
			},
		},
	}
}
