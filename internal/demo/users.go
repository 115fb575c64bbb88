package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// User accounts with auto-increment IDs, shown two ways.
const (
	usersCount   = 20_000
	usersFirstID = 10_400_001
	usersWindow  = 30 * 24 * time.Hour
)

// signup is one new account: its ID, the time it signed up and its profile.
type signup struct {
	id      int
	at      time.Time
	profile int // bytes of the JSON profile
}

// signups returns the accounts both user-ID scenarios store: IDs
// usersFirstID.. in order, each signing up later than the one before, spread
// over the last 30 days.
func signups() []signup {
	r := newRand("users-signups")
	w := lastWindow(usersWindow)
	step := w.end.Sub(w.start) / usersCount
	out := make([]signup, usersCount)
	for i := range out {
		jitter := time.Duration(r.Int64N(step.Milliseconds())) * time.Millisecond
		out[i] = signup{
			id:      usersFirstID + i,
			at:      w.start.Add(time.Duration(i)*step + jitter).Truncate(time.Millisecond),
			profile: userProfile(r, usersFirstID+i),
		}
	}
	return out
}

// userProfile is the size of a small JSON profile of about 110 bytes.
func userProfile(r *rand.Rand, id int) int {
	first, last := capitalize(pick(r, firstNames)), capitalize(pick(r, lastNames))
	return measure(`{"id":%d,"display_name":"%s %s","plan":"%s","country":"%s","signup_client":"%s","newsletter":%t}`,
		id, first, last, pick(r, plans), pick(r, countries), pick(r, clients), r.IntN(3) == 0)
}

// usersSequentialScenario: accounts keyed by their auto-increment ID (bad).
//
// Key: the 8-digit ID, e.g. 10400001 … 10420000. Rows: 20,000, written in
// ID order, each signing up later than the one before (cell
// profile:json at signup time, last 30 days), so all new accounts, the most
// active ones, pile up at the end of the table. Expects sequential-numeric-id
// and sequential-keys, both table-wide.
func usersSequentialScenario() Scenario {
	w := lastWindow(usersWindow)
	return Scenario{
		Name:        "users-sequential-ids",
		Description: "user accounts keyed by auto-increment ID: new, busy users pile up at the end (bad)",
		KeyFormat:   "<8-digit increasing user ID>",
		Expect:      []string{kindSequentialNumericID, kindSequentialKeys},
		Families:    []string{"profile"},
		Rows:        usersCount,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			for _, s := range signups() {
				if err := put(fmt.Sprint(s.id), cellAt("profile", "json", s.at, s.profile)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// reverseDigits reverses a decimal ID, so that consecutive IDs differ in
// their first digit: 10400123 becomes 32100401.
func reverseDigits(id int) string {
	digits := []byte(fmt.Sprint(id))
	slices.Reverse(digits)
	return string(digits)
}

// usersReversedScenario: the same accounts keyed by the reversed ID (good).
//
// Key: the ID's 8 digits reversed, e.g. 10400123 → 32100401. Rows: 20,000,
// written in signup (ID) order with the same cells as users-sequential-ids;
// consecutive sign-ups land in ten different key ranges. Expects no finding.
func usersReversedScenario() Scenario {
	w := lastWindow(usersWindow)
	return Scenario{
		Name:        "users-reversed-ids",
		Description: "the same accounts keyed by the reversed ID: new users spread over the table (good)",
		KeyFormat:   "<8-digit user ID, digits reversed>",
		Good:        true,
		Families:    []string{"profile"},
		Rows:        usersCount,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			for _, s := range signups() {
				if err := put(reverseDigits(s.id), cellAt("profile", "json", s.at, s.profile)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// capitalize upper-cases the first letter of an ASCII name.
func capitalize(name string) string {
	return strings.ToUpper(name[:1]) + name[1:]
}
