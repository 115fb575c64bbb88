package demo

import (
	"fmt"
	"math"
	"time"
)

// User profiles keyed by an unpadded numeric ID.
const (
	unpaddedUsers  = 20_000
	unpaddedMaxID  = 5_000_000
	unpaddedWindow = 30 * 24 * time.Hour
)

// unpaddedIDsScenario: profiles keyed user#<id> with the ID not zero-padded
// (bad).
//
// Key: user#<id>, e.g. user#3, user#20, user#4711, user#1048576: 20,000
// distinct IDs between 1 and 5,000,000, drawn log-uniformly so that every
// width from 1 to 7 digits occurs; lexicographic order is not numeric order
// (user#20 sorts after user#1999999). Rows: 20,000, one cell profile:json
// (~110 B) at a random time in the last 30 days, unrelated to the ID, so the
// keys are not sequential. Expects unpadded-number, table-wide.
func unpaddedIDsScenario() Scenario {
	w := lastWindow(unpaddedWindow)
	return Scenario{
		Name:        "unpadded-user-ids",
		Description: "profiles keyed user#3, user#20, user#4711: numbers not zero-padded, so order is not numeric (bad)",
		KeyFormat:   "user#<id, 1–7 digits, unpadded>",
		Expect:      []string{kindUnpaddedNumber},
		Families:    []string{"profile"},
		Rows:        unpaddedUsers,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("unpadded-user-ids")
			seen := make(map[int]bool, unpaddedUsers)
			logMax := math.Log(unpaddedMaxID)
			for len(seen) < unpaddedUsers {
				id := int(math.Exp(r.Float64() * logMax))
				if id < 1 || seen[id] {
					continue
				}
				seen[id] = true
				key := fmt.Sprintf("user#%d", id)
				if err := put(key, cellAt("profile", "json", randomTime(r, w.start, w.end), userProfile(r, id))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
