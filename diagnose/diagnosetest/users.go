package diagnosetest

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// signupTimes returns 3,000 sign-up times, each later than the one
// before, over the last 30 days.
func signupTimes() []time.Time {
	r := newRand(2)
	start := demoNow.Add(-30 * 24 * time.Hour)
	step := 30 * 24 * time.Hour / 3000
	times := make([]time.Time, 3000)
	for i := range times {
		times[i] = start.Add(time.Duration(i)*step + time.Duration(r.Int64N(int64(step))))
	}
	return times
}

func reverseDigits(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func userScenarios() []Scenario {
	const firstID = 10_400_001
	return []Scenario{
		{
			Name: "users-sequential-ids", Families: []string{"profile"},
			Expect: []string{"sequential-numeric-id", "sequential-keys"},
			rows: func(put Put) {
				for i, at := range signupTimes() {
					put(fmt.Sprint(firstID+i), cell("profile", "json", at, 110))
				}
			},
		},
		{
			Name: "users-reversed-ids", Good: true, Families: []string{"profile"},
			rows: func(put Put) {
				for i, at := range signupTimes() {
					put(reverseDigits(fmt.Sprint(firstID+i)), cell("profile", "json", at, 110))
				}
			},
		},
		{
			// The same sequential IDs behind two constant tags, with :.
			Name: "users-sequential-ids-colon", Families: []string{"profile"},
			Expect:    []string{"sequential-numeric-id", "sequential-keys"},
			Locations: []Location{{"sequential-numeric-id", "app:users:"}, {"sequential-keys", "app:users:"}},
			rows: func(put Put) {
				for i, at := range signupTimes() {
					put(fmt.Sprintf("app:users:%d", firstID+i), cell("profile", "json", at, 110))
				}
			},
		},
		{
			Name: "unpadded-user-ids", Families: []string{"profile"},
			Expect: []string{"unpadded-number"},
			rows: func(put Put) {
				r := newRand(3)
				seen := map[int]bool{}
				for len(seen) < 3000 {
					id := int(math.Exp(r.Float64() * math.Log(5_000_000)))
					if id < 1 || seen[id] {
						continue
					}
					seen[id] = true
					put(fmt.Sprintf("user#%d", id), cell("profile", "json", randomTime(r, demoNow.Add(-30*24*time.Hour), demoNow), 110))
				}
			},
		},
		{
			// Unpadded item numbers deep in a | key.
			Name: "unpadded-items-pipe", Families: []string{"o"},
			Expect: []string{"unpadded-number"},
			rows: func(put Put) {
				r := newRand(4)
				for range 300 {
					order := 100_000 + r.IntN(900_000)
					at := randomTime(r, demoNow.Add(-30*24*time.Hour), demoNow)
					items := 1 + r.IntN(15)
					for item := 1; item <= items; item++ {
						put(fmt.Sprintf("order|%06d|item|%d", order, item), cell("o", "line", at, 60))
					}
				}
			},
		},
	}
}
