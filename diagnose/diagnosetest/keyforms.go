package diagnosetest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"
)

// escapeSensorIDs are sensor IDs whose bytes a terminal would act on: ESC
// [ 3 1, CSI 0 m BEL, and NUL BEL NUL ESC.
var escapeSensorIDs = []uint32{0x1b5b3331, 0x9b306d07, 0x0007001b}

func keyFormScenarios() []Scenario {
	week := demoNow.Add(-7 * 24 * time.Hour)
	return []Scenario{
		{
			Name: "hashed-order-keys", Families: []string{"doc"},
			Expect: []string{"hashed-key"},
			rows: func(put Put) {
				r := newRand(16)
				for i := range 3000 {
					kind := pick(r, []string{"order", "order", "invoice", "shipment"})
					sum := sha256.Sum256([]byte(fmt.Sprintf("%s:%d", kind, 88_000_000+i)))
					put(hex.EncodeToString(sum[:8])+"#"+kind, cell("doc", "json", randomTime(r, week, demoNow), 120))
				}
			},
		},
		{
			Name: "binary-sensor-keys", Families: []string{"r"},
			Expect: []string{"binary-key"},
			rows: func(put Put) {
				r := newRand(17)
				sensors := append([]uint32(nil), escapeSensorIDs...)
				for len(sensors) < 100 {
					sensors = append(sensors, r.Uint32())
				}
				for _, sensor := range sensors {
					for _, at := range sortedTimes(r, 30, demoNow.Add(-24*time.Hour), demoNow) {
						key := make([]byte, 12)
						binary.BigEndian.PutUint32(key, sensor)
						binary.BigEndian.PutUint64(key[4:], uint64(at.UnixMilli()))
						put(string(key), cell("r", "v", at, 16))
					}
				}
			},
		},
		{
			Name: "pii-login-keys", Families: []string{"login"},
			Expect: []string{"pii-in-key"},
			rows: func(put Put) {
				r := newRand(18)
				var people []string
				for i := range 240 {
					people = append(people, fmt.Sprintf("%s.%s%d@%s", pick(r, firstNames), pick(r, lastNames), i,
						pick(r, []string{"example.com", "example.org", "mail.example.com"})))
				}
				for range 60 {
					people = append(people, fmt.Sprintf("+447700900%03d", r.IntN(1000)))
				}
				seen := map[string]bool{}
				for len(seen) < 3000 {
					at := randomTime(r, demoNow.Add(-30*24*time.Hour), demoNow)
					key := fmt.Sprintf("%s#%013d", pick(r, people), at.UnixMilli())
					if !seen[key] {
						seen[key] = true
						put(key, cell("login", "json", at, 200))
					}
				}
			},
		},
	}
}
