package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
)

// Sign-in events keyed by the user's e-mail address or phone number.
const (
	piiLogins     = 20_000
	piiEmailUsers = 1_600
	piiPhoneUsers = 400
	piiWindow     = 30 * 24 * time.Hour
	piiNamedUser  = "alice.smith@example.com"
	piiLoginSkew  = 0.5
)

// emailDomains are reserved for documentation (RFC 2606), so no generated
// address can belong to anyone.
var emailDomains = []string{"example.com", "example.org", "example.net", "mail.example.com"}

var userAgents = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
	"MyApp/7.4.2 (Android 15; Pixel 9)",
}

// piiIdentities returns the sign-in names: piiNamedUser first, then e-mail
// addresses at reserved example domains and phone numbers from fictional
// ranges (+44 7700 900xxx, +1 NXX 555-01xx), in E.164 form.
func piiIdentities(r *rand.Rand) []string {
	seen := map[string]bool{piiNamedUser: true}
	identities := []string{piiNamedUser}
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			identities = append(identities, id)
		}
	}
	for len(identities) < piiEmailUsers {
		first, last := pick(r, firstNames), pick(r, lastNames)
		domain := pick(r, emailDomains)
		switch r.IntN(4) {
		case 0:
			add(fmt.Sprintf("%s.%s@%s", first, last, domain))
		case 1:
			add(fmt.Sprintf("%s%s%d@%s", first, last, r.IntN(100), domain))
		case 2:
			add(fmt.Sprintf("%c.%s@%s", first[0], last, domain))
		default:
			add(fmt.Sprintf("%s_%s%d@%s", first, last, 1960+r.IntN(50), domain))
		}
	}
	for len(identities) < piiEmailUsers+piiPhoneUsers {
		if r.IntN(2) == 0 {
			add(fmt.Sprintf("+447700900%03d", r.IntN(1000)))
		} else {
			add(fmt.Sprintf("+1%d55501%02d", pick(r, []int{202, 212, 312, 415, 617, 713}), r.IntN(100)))
		}
	}
	return identities
}

// piiKeysScenario: sign-in events keyed by e-mail address or phone number
// (bad).
//
// Key: <e-mail or E.164 phone>#<13-digit epoch millis>, e.g.
// alice.smith@example.com#1793480112345 or +447700900123#1793480112345.
// Rows: 20,000 sign-ins by 2,000 people (1,600 e-mail addresses at
// example.com/.org/.net, 400 phone numbers in fictional ranges; mild Zipf
// skew), at random times in the last 30 days, written in time order, one
// cell login:json (~200 B: IP from documentation ranges, user agent,
// result). Expects pii-in-key, table-wide.
func piiKeysScenario() Scenario {
	w := lastWindow(piiWindow)
	return Scenario{
		Name:        "pii-login-keys",
		Description: "sign-in events keyed by e-mail address or phone number, e.g. alice.smith@example.com#… (bad)",
		KeyFormat:   "<e-mail address or E.164 phone>#<epoch millis>",
		Expect:      []string{kindPIIInKey},
		Families:    []string{"login"},
		Rows:        piiLogins,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("pii-login-keys")
			identities := piiIdentities(r)
			weights := zipfWeights(len(identities), piiLoginSkew)
			type login struct {
				key string
				at  time.Time
			}
			logins := make([]login, 0, piiLogins)
			seen := make(map[string]bool, piiLogins)
			for len(logins) < piiLogins {
				at := randomTime(r, w.start, w.end)
				key := fmt.Sprintf("%s#%013d", identities[pickWeighted(r, weights)], at.UnixMilli())
				if !seen[key] {
					seen[key] = true
					logins = append(logins, login{key, at})
				}
			}
			slices.SortStableFunc(logins, func(a, b login) int { return a.at.Compare(b.at) })
			ips := [][3]int{{192, 0, 2}, {198, 51, 100}, {203, 0, 113}}
			for _, l := range logins {
				ip := pick(r, ips)
				value := measure(`{"ip":"%d.%d.%d.%d","ua":"%s","result":"%s","mfa":%t}`,
					ip[0], ip[1], ip[2], 1+r.IntN(254), pick(r, userAgents),
					pick(r, []string{"ok", "ok", "ok", "ok", "ok", "bad_password", "mfa_required"}), r.IntN(3) > 0)
				if err := put(l.key, cellAt("login", "json", l.at, value)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
