package demo

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"
)

// A social network's activity feed, where one celebrity draws a large share
// of the events, shown unsalted and salted.
const (
	celebrityEvents = 20_000
	// celebrityRows is the celebrity's share of all events: 38 %.
	celebrityRows = celebrityEvents * 38 / 100
	// celebrityRecentRows of her events fall in the last 24 h (she went
	// viral), about two thirds of that day's writes.
	celebrityRecentRows = celebrityRows * 45 / 100
	celebrityUsers      = 1_500
	celebrityHandle     = "mila_rosewood"
	celebrityWindow     = 7 * 24 * time.Hour
	celebrityRecent     = 24 * time.Hour
	// celebrityPosts is how many posts the celebrity's events are about;
	// an ordinary user has one post per eventsPerPost events, at least one.
	celebrityPosts = 400
	eventsPerPost  = 8
	// saltBuckets is N in the salted key hash(logical key without its
	// timestamp) mod N.
	saltBuckets = 8
)

// feedEvent is one activity-feed event addressed to a user.
type feedEvent struct {
	logicalKey string // user#<handle>#<post>#<13-digit millis>
	at         time.Time
	payload    int // bytes of the JSON event
}

// feedEvents returns the events both celebrity scenarios store, in the order
// they happened: [celebrityRows] for the celebrity and the rest spread over
// [celebrityUsers] ordinary users with a mild Zipf skew (the busiest one has
// about 1 % of the table).
func feedEvents() []feedEvent {
	r := newRand("social-feed")
	w := lastWindow(celebrityWindow)

	handles := make([]string, 0, celebrityUsers)
	seen := map[string]bool{celebrityHandle: true}
	for len(handles) < celebrityUsers {
		handle := pick(r, firstNames) + "_" + pick(r, lastNames)
		if r.IntN(2) == 0 {
			handle += fmt.Sprint(r.IntN(100))
		}
		if !seen[handle] {
			seen[handle] = true
			handles = append(handles, handle)
		}
	}

	perUser := make([]int, celebrityUsers)
	weights := zipfWeights(celebrityUsers, 0.6)
	for range celebrityEvents - celebrityRows {
		perUser[pickWeighted(r, weights)]++
	}

	events := make([]feedEvent, 0, celebrityEvents)
	nextPost := 0
	add := func(handle string, posts int, times []time.Time) {
		first := nextPost
		nextPost += posts
		postWeights := zipfWeights(posts, 0.5)
		for _, at := range times {
			post := fmt.Sprintf("p%06d", first+pickWeighted(r, postWeights))
			payload := measure(`{"type":"%s","actor":"%s","post":"%s","client":"%s"}`,
				pick(r, eventTypes), pick(r, handles), post, pick(r, clients))
			events = append(events, feedEvent{
				logicalKey: fmt.Sprintf("user#%s#%s#%013d", handle, post, at.UnixMilli()),
				at:         at,
				payload:    payload,
			})
		}
	}
	recentStart := w.end.Add(-celebrityRecent)
	celebrityTimes := append(distinctTimes(r, celebrityRows-celebrityRecentRows, w.start, recentStart),
		distinctTimes(r, celebrityRecentRows, recentStart, w.end)...)
	add(celebrityHandle, celebrityPosts, celebrityTimes)
	for i, handle := range handles {
		add(handle, max(1, perUser[i]/eventsPerPost), distinctTimes(r, perUser[i], w.start, w.end))
	}
	slices.SortStableFunc(events, func(a, b feedEvent) int { return a.at.Compare(b.at) })
	return events
}

// saltedKey prefixes a logical key with the hash of the key without its
// timestamp (user#handle#post) mod [saltBuckets], zero-padded to the width
// of the largest bucket number: each post's events stay together, in time
// order, while a user's posts spread over the buckets.
func saltedKey(logicalKey string) string {
	h := fnv.New32a()
	h.Write([]byte(logicalKey[:strings.LastIndexByte(logicalKey, '#')]))
	width := len(fmt.Sprint(saltBuckets - 1))
	return fmt.Sprintf("%0*d#%s", width, h.Sum32()%saltBuckets, logicalKey)
}

// celebrityScenario: an activity feed keyed user#handle#post#time where one
// user is a celebrity (bad).
//
// Key: user#<handle>#<post>#<13-digit epoch millis>, e.g.
// user#mila_rosewood#p000123#1793480112345: an event (a like, a comment, a
// share) on one of the user's posts. Rows: 20,000 over the last 7 days, one
// cell event:payload (JSON, ~90 B) each, written in time order; the
// celebrity's events are about 400 posts, an ordinary user's about one
// post per 8 events. The
// celebrity, user#mila_rosewood#, holds 38 % of the rows (7,600) and about
// two thirds of the last 24 h's writes; no other user has more than about
// 1.5 %. Expects hot-key-range at user#mila_rosewood#.
func celebrityScenario() Scenario {
	w := lastWindow(celebrityWindow)
	return Scenario{
		Name:        "social-celebrity",
		Description: "activity feed keyed user#handle#post#time where one celebrity has 38% of rows and most recent writes (bad)",
		KeyFormat:   "user#<handle>#<post>#<epoch millis>",
		Expect:      []string{kindHotKeyRange},
		Locations:   []Location{{Kind: kindHotKeyRange, Key: "user#" + celebrityHandle + "#"}},
		Families:    []string{"event"},
		Rows:        celebrityEvents,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			for _, e := range feedEvents() {
				if err := put(e.logicalKey, cellAt("event", "payload", e.at, e.payload)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// celebritySaltedScenario: the same feed with salted keys (good).
//
// Key: <hash(user#handle#post) mod 8>#user#<handle>#<post>#<epoch millis>,
// e.g. 3#user#mila_rosewood#p000123#1793480112345, the hash being FNV-1a 32
// of the logical key without its timestamp, as the key-salting guidance
// suggests: each post's events stay together in time order (a post's
// activity is one prefix scan), while the celebrity's 400 posts spread
// over the 8 buckets. Rows: 20,000, the same cells and times as
// social-celebrity; each bucket holds about 12.5 % of the rows and the
// celebrity about 4.75 % in each. A point read still computes one key;
// reading a user's whole feed is 8 prefix scans merged by time. Expects no
// finding.
func celebritySaltedScenario() Scenario {
	w := lastWindow(celebrityWindow)
	return Scenario{
		Name:        "social-celebrity-salted",
		Description: "the same feed salted with hash(key without timestamp) mod 8: the celebrity's writes spread over 8 ranges (good)",
		KeyFormat:   "<hash(user#handle#post) mod 8>#user#<handle>#<post>#<epoch millis>",
		Good:        true,
		Families:    []string{"event"},
		Rows:        celebrityEvents,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			for _, e := range feedEvents() {
				if err := put(saltedKey(e.logicalKey), cellAt("event", "payload", e.at, e.payload)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
