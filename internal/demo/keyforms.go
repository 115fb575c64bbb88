package demo

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Key forms real applications write without a delimiter, an account table
// whose hot tenth only a range shows, and a table of two datasets.
const (
	keyFormRows   = 20_000
	keyFormWindow = 30 * 24 * time.Hour
	// hotTenthDigit leads the account numbers that take most updates: a
	// tenth of the padded number space.
	hotTenthDigit = 3
	// hotTenthVersions is how many balance updates an account of the hot
	// tenth keeps; every other account has one.
	hotTenthVersions = 20
	// eventShare is the event dataset's share of the two-dataset table.
	eventShare = 0.85
)

// sequentialRows writes rows word1 … word<rows> in ID order, each later
// than the one before over the last 30 days, one cell profile:json of
// about 110 bytes: an auto-increment ID glued to a word, as many
// applications key users, greetings or orders.
func sequentialRows(word string, rows int) func(put Put) error {
	return func(put Put) error {
		r := newRand(word + "-sequential")
		w := lastWindow(keyFormWindow)
		step := w.end.Sub(w.start) / time.Duration(rows)
		for i := 1; i <= rows; i++ {
			jitter := time.Duration(r.Int64N(max(1, step.Milliseconds()))) * time.Millisecond
			at := w.start.Add(time.Duration(i-1)*step + jitter).Truncate(time.Millisecond)
			if err := put(fmt.Sprintf("%s%d", word, i), cellAt("profile", "json", at, userProfile(r, i))); err != nil {
				return err
			}
		}
		return nil
	}
}

// usersNoDelimiterScenario: accounts keyed user<auto-increment ID>, no
// delimiter and no padding (bad).
//
// Key: user1, user2, … user20000, written in ID order over the last 30
// days, one cell profile:json (~110 B). Byte order is not numeric order
// (user10 sorts before user2), yet every new account lands next to the
// last one of its width. Expects unpadded-number, sequential-numeric-id and
// sequential-keys.
func usersNoDelimiterScenario() Scenario {
	w := lastWindow(keyFormWindow)
	return Scenario{
		Name:        "users-no-delimiter",
		Description: "accounts keyed user1, user2 … user20000: auto-increment, no delimiter, no padding (bad)",
		KeyFormat:   "user<ID, 1–5 digits, unpadded>",
		Expect:      []string{kindUnpaddedNumber, kindSequentialNumericID, kindSequentialKeys},
		Locations:   []Location{{Kind: kindSequentialNumericID, Key: "user"}},
		Families:    []string{"profile"},
		Rows:        keyFormRows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate:    sequentialRows("user", keyFormRows),
	}
}

// UnpaddedSequentialTable is a test table of rows rows keyed greeting1 …
// greeting<rows>, written in order like users-no-delimiter: the
// diagnostics must call it sequential at any size, whether or not rows is
// near a power of ten.
func UnpaddedSequentialTable(rows int) Scenario {
	w := lastWindow(keyFormWindow)
	return Scenario{
		Name:        fmt.Sprintf("greetings-%d", rows),
		Description: "greetings keyed greeting1 … greetingN, written in order",
		KeyFormat:   "greeting<ID, unpadded>",
		Expect:      []string{kindUnpaddedNumber, kindSequentialNumericID, kindSequentialKeys},
		Locations:   []Location{{Kind: kindSequentialNumericID, Key: "greeting"}},
		Families:    []string{"profile"},
		Rows:        rows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		TestOnly:    true,
		generate:    sequentialRows("greeting", rows),
	}
}

// hashedNumber is the decimal FNV-1a 64 hash of a sequence number:
// uniformly spread, 1 to 20 digits, most of them 19 or 20.
func hashedNumber(n int) uint64 {
	h := fnv.New64a()
	fmt.Fprint(h, n)
	return h.Sum64()
}

// usersHashedScenario: the same accounts keyed user<hash of the ID>, no
// delimiter (bad).
//
// Key: user + the decimal FNV-1a 64 hash of the auto-increment ID, e.g.
// user13490541208891011302; rows written in ID order over the last 30
// days, one cell profile:json (~110 B). Writes spread evenly, but the keys
// keep no order: no range of users can be scanned. Expects hashed-key.
func usersHashedScenario() Scenario {
	w := lastWindow(keyFormWindow)
	return Scenario{
		Name:        "users-hashed-no-delimiter",
		Description: "accounts keyed user + decimal hash of the ID: spread, but no order left (bad)",
		KeyFormat:   "user<FNV-1a 64 of the ID, decimal>",
		Expect:      []string{kindHashedKey},
		Families:    []string{"profile"},
		Rows:        keyFormRows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("users-hashed")
			step := w.end.Sub(w.start) / keyFormRows
			for i := 1; i <= keyFormRows; i++ {
				at := w.start.Add(time.Duration(i-1)*step + time.Duration(r.Int64N(step.Milliseconds()))*time.Millisecond)
				if err := put(fmt.Sprintf("user%d", hashedNumber(i)), cellAt("profile", "json", at, userProfile(r, i))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// accountsHotTenthScenario: account balances keyed by a zero-padded
// account number, where one tenth of the number space takes most updates
// (bad).
//
// Key: acct#<8-digit account number>, 20,000 accounts spread evenly over
// 00000000–99999999. Each row holds the column bal:cents; an account of
// the tenth acct#3… (a block handed to one busy partner) keeps 20 versions
// of it, updated over the last 30 days, any other account one. That tenth
// holds 10% of the rows and 69% of the writes, with ten siblings under
// acct# (first digits) where the hot-range rule once needed sixteen.
// Expects hot-key-range at acct#3.
func accountsHotTenthScenario() Scenario {
	w := lastWindow(keyFormWindow)
	return Scenario{
		Name:        "accounts-hot-tenth",
		Description: "balances keyed acct#<8-digit number>: the tenth acct#3… takes 69% of the updates (bad)",
		KeyFormat:   "acct#<account number, 8 digits>",
		Expect:      []string{kindHotKeyRange},
		Locations:   []Location{{Kind: kindHotKeyRange, Key: fmt.Sprintf("acct#%d", hotTenthDigit)}},
		Families:    []string{"bal"},
		Rows:        keyFormRows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("accounts-hot-tenth")
			seen := make(map[int]bool, keyFormRows)
			for len(seen) < keyFormRows {
				account := r.IntN(100_000_000)
				if seen[account] {
					continue
				}
				seen[account] = true
				versions := 1
				if account/10_000_000 == hotTenthDigit {
					versions = hotTenthVersions
				}
				cells := make([]keyspace.Cell, 0, versions)
				for _, at := range distinctTimes(r, versions, w.start, w.end) {
					cells = append(cells, cellAt("bal", "cents", at, measure("%d", r.IntN(10_000_000))))
				}
				if err := put(fmt.Sprintf("acct#%08d", account), cells...); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// twoDatasetsScenario: one table holding two datasets under two top-level
// prefixes of very different sizes (good).
//
// Key: event#<device, 8 hex>#<19-digit Long.MAX_VALUE-millis> for 85% of
// the rows (one cell e:json each) and profile#<device, 8 hex> for the
// other 15% (columns p:name, p:model and p:fw, written once): each
// dataset receives writes in proportion to its size, so the large prefix
// is not a hotspot. Expects no finding.
func twoDatasetsScenario() Scenario {
	w := lastWindow(keyFormWindow)
	return Scenario{
		Name:        "two-datasets",
		Description: "events and device profiles in one table under event# and profile#: writes in proportion (good)",
		KeyFormat:   "event#<device>#<Long.MAX_VALUE-millis> | profile#<device>",
		Good:        true,
		Families:    []string{"e", "p"},
		Rows:        keyFormRows,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("two-datasets")
			profiles := int(math.Round(keyFormRows * (1 - eventShare)))
			devices := make([]uint32, 0, profiles)
			seen := make(map[uint32]bool, profiles)
			for len(devices) < profiles {
				if d := r.Uint32(); !seen[d] {
					seen[d] = true
					devices = append(devices, d)
				}
			}
			type event struct {
				key string
				at  time.Time
			}
			events := make([]event, 0, keyFormRows-profiles)
			keys := make(map[string]bool, keyFormRows-profiles)
			for len(events) < keyFormRows-profiles {
				at := randomTime(r, w.start, w.end)
				key := fmt.Sprintf("event#%08x#%s", pick(r, devices), reversedMillis(at))
				if !keys[key] {
					keys[key] = true
					events = append(events, event{key, at})
				}
			}
			slices.SortFunc(events, func(a, b event) int { return a.at.Compare(b.at) })
			for _, d := range devices {
				at := randomTime(r, w.start, w.end)
				err := put(fmt.Sprintf("profile#%08x", d),
					cellAt("p", "name", at, measure("%s %s", pick(r, firstNames), pick(r, lastNames))),
					cellAt("p", "model", at, len(pick(r, cameras))),
					cellAt("p", "fw", at, len(pick(r, osBuilds))))
				if err != nil {
					return err
				}
			}
			for _, e := range events {
				if err := put(e.key, cellAt("e", "json", e.at, 60+r.IntN(80))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
