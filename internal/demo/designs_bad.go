package demo

import (
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// badDesigns are the designs the guide warns against, each planting the
// findings it must raise.
func badDesigns() []Design {
	return []Design{
		timestampFirstDesign(),
		epochSecondsDesign(),
		sequentialIDsDesign(),
		sequentialPaddedIDsDesign(),
		celebrityFeedDesign(),
		counterRowDesign(),
		oversizedRowDesign(),
		forwardHostsDesign(),
		hashedIDsDesign(),
		emailKeysDesign(),
		unpaddedItemsDesign(),
		hotBandDesign(),
	}
}

// timestampFirstPlanted is what a key led by the time plants: the
// timestamp first, and writes marching to the end of the dataset.
func timestampFirstPlanted(prefix string) []Location {
	return []Location{prefixLocation(kindKeyStartsWithTimestamp, prefix), prefixLocation(kindSequentialKeys, prefix)}
}

// timestampFirstDesign: host metrics keyed by the time first, the guide's
// first anti-pattern.
func timestampFirstDesign() Design {
	return Design{
		Name:        "timestamp-first",
		Description: "host metrics keyed <epoch millis>#host<NN>: every new row lands at the end",
		KeyFormat:   "P<epoch millis, 13 digits>#host<2 digits>",
		Tag:         "metrics",
		BareForm:    "digits",
		MinRows:     200,
		Families:    []string{"stats"},
		planted:     timestampFirstPlanted,
		generate: func(g designRun) error {
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end)
				return fmt.Sprintf("%s%013d#host%02d", g.prefix, at.UnixMilli(), g.r.IntN(50)), at
			})
			return putOneCell(g, keys, "stats", "reading", func() int { return 60 + g.r.IntN(40) })
		},
	}
}

// epochSecondsDesign: events keyed by nothing but their epoch second.
func epochSecondsDesign() Design {
	return Design{
		Name:        "epoch-seconds",
		Description: "events keyed by their epoch second alone: one write front at the end",
		KeyFormat:   "P<epoch seconds, 10 digits>",
		Tag:         "clicks",
		BareForm:    "digits",
		MinRows:     200,
		Families:    []string{"e"},
		planted:     timestampFirstPlanted,
		generate: func(g designRun) error {
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end).Truncate(time.Second)
				return fmt.Sprintf("%s%d", g.prefix, at.Unix()), at
			})
			return putOneCell(g, keys, "e", "json", func() int { return 80 + g.r.IntN(80) })
		},
	}
}

// sequentialIDsDesign: invoices keyed by an auto-increment number glued to
// a word, unpadded, written in order.
func sequentialIDsDesign() Design {
	return Design{
		Name:        "sequential-ids",
		Description: "invoices keyed invoice1, invoice2, …: auto-increment, unpadded, written in order",
		KeyFormat:   "Pinvoice<ID, unpadded>",
		Tag:         "billing",
		BareForm:    "word<number>",
		MinRows:     400,
		Families:    []string{"inv"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindSequentialNumericID, prefix), prefixLocation(kindSequentialKeys, prefix),
				prefixLocation(kindUnpaddedNumber, prefix)}
		},
		generate: func(g designRun) error {
			step := g.w.end.Sub(g.w.start) / time.Duration(g.rows)
			for i := 1; i <= g.rows; i++ {
				at := g.w.start.Add(time.Duration(i-1)*step + time.Duration(g.r.Int64N(max(1, int64(step)))))
				if err := g.put(fmt.Sprintf("%sinvoice%d", g.prefix, i), cellAt("inv", "json", at.Truncate(time.Millisecond), 150+g.r.IntN(200))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// sequentialPaddedIDsDesign: orders keyed by a zero-padded auto-increment
// number, written in order.
func sequentialPaddedIDsDesign() Design {
	return Design{
		Name:        "sequential-padded-ids",
		Description: "orders keyed by an 8-digit auto-increment ID, written in order",
		KeyFormat:   "P<order ID, 8 digits, increasing>",
		Tag:         "orders",
		MinRows:     200,
		Families:    []string{"o"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindSequentialNumericID, prefix), prefixLocation(kindSequentialKeys, prefix)}
		},
		generate: func(g designRun) error {
			step := g.w.end.Sub(g.w.start) / time.Duration(g.rows)
			first := 10_400_000 + g.r.IntN(1_000_000)
			for i := range g.rows {
				at := g.w.start.Add(time.Duration(i)*step + time.Duration(g.r.Int64N(max(1, int64(step)))))
				if err := g.put(fmt.Sprintf("%s%08d", g.prefix, first+i), cellAt("o", "json", at.Truncate(time.Millisecond), 200+g.r.IntN(200))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// celebrityOfDesign is the handle that takes most of a celebrity feed's
// recent writes.
const celebrityOfDesign = "mila_rosewood"

// celebrityFeedDesign: an activity feed keyed handle#post#time where one
// celebrity holds 40% of the events and 70% of the newest.
func celebrityFeedDesign() Design {
	return Design{
		Name:        "celebrity-feed",
		Description: "an activity feed keyed handle#post#millis; one celebrity takes 70% of the recent writes",
		KeyFormat:   "P<handle>#<post>#<epoch millis>",
		Tag:         "timeline",
		BareForm:    "words",
		MinRows:     1_000,
		Families:    []string{"event"},
		planted: func(prefix string) []Location {
			return []Location{{Kind: kindHotKeyRange, Key: prefix + celebrityOfDesign + "#"}}
		},
		generate: func(g designRun) error {
			keys := feed(g, celebrityOfDesign, 0.4, 0.7, func(logical string) string { return g.prefix + logical })
			return putOneCell(g, keys, "event", "payload", func() int { return 60 + g.r.IntN(60) })
		},
	}
}

// counterSites and counterMetrics name a counter dataset's rows.
var (
	counterSites   = []string{"home", "search", "cart", "checkout", "help", "blog", "docs", "login", "signup", "pricing"}
	counterMetrics = []string{"views", "clicks", "errors", "visitors", "signups", "bounces"}
)

// hotCounterVersions is how many times the hot counter row was
// rewritten, every version kept.
const hotCounterVersions = 3_000

// counterRowDesign: page counters, one of them rewritten on every hit.
func counterRowDesign() Design {
	return Design{
		Name:        "counter-row",
		Description: "page counters keyed page#metric, the first rewritten 3,000 times with every version kept",
		KeyFormat:   "P<page>#<metric>",
		Tag:         "counters",
		MinRows:     1,
		MaxRows:     len(counterSites) * len(counterMetrics),
		Families:    []string{"n"},
		planted: func(prefix string) []Location {
			return []Location{{Kind: kindFrequentlyUpdatedRow, Key: prefix + counterSites[0] + "#" + counterMetrics[0], Row: true}}
		},
		generate: func(g designRun) error {
			for i := range g.rows {
				key := g.prefix + counterSites[i%len(counterSites)] + "#" + counterMetrics[i/len(counterSites)]
				versions := 1 + g.r.IntN(5)
				if i == 0 {
					versions = hotCounterVersions
				}
				times := distinctTimes(g.r, versions, g.w.start, g.w.end)
				cells := make([]keyspace.Cell, versions)
				for v, at := range times {
					cells[versions-1-v] = cellAt("n", "count", at, 8)
				}
				if err := g.put(key, cells...); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// Sizes of the oversized row: chunks of a video under the 10 MB cell
// guidance, over the 100 MB row guidance in all.
const (
	oversizedChunks     = 12
	oversizedChunkBytes = 9_500_000
	oversizedAsset      = "studio#raw-cam07"
)

// oversizedRowDesign: media metadata and thumbnails, one row of which
// holds a whole video in chunks.
func oversizedRowDesign() Design {
	return Design{
		Name:        "oversized-row",
		Description: "media rows keyed owner#asset; one holds a 114 MB video in 12 cells",
		KeyFormat:   "P<owner>#<asset>",
		Tag:         "media",
		MinRows:     1,
		Families:    []string{"blob", "meta"},
		planted: func(prefix string) []Location {
			return []Location{{Kind: kindLargeRow, Key: prefix + oversizedAsset, Row: true}}
		},
		generate: func(g designRun) error {
			at := randomTime(g.r, g.w.start, g.w.end)
			cells := []keyspace.Cell{cellAt("meta", "json", at, 120)}
			for i := range oversizedChunks {
				cells = append(cells, cellAt("blob", fmt.Sprintf("chunk-%03d", i), at.Add(time.Duration(i)*time.Millisecond), oversizedChunkBytes))
			}
			if err := g.put(g.prefix+oversizedAsset, cells...); err != nil {
				return err
			}
			owners := make([]string, max(5, g.rows/20))
			for i := range owners {
				owners[i] = pick(g.r, firstNames) + "_" + pick(g.r, lastNames)
			}
			keys := uniqueKeys(g.rows-1, func() (string, time.Time) {
				return fmt.Sprintf("%s%s#%08x", g.prefix, pick(g.r, owners), g.r.Uint32()), randomTime(g.r, g.w.start, g.w.end)
			})
			for _, k := range keys {
				if err := g.put(k.key, cellAt("meta", "json", k.at, 100+g.r.IntN(80)), cellAt("blob", "thumb", k.at, 512+g.r.IntN(1536))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// forwardHostsDesign: crawled pages keyed by host name written forward.
func forwardHostsDesign() Design {
	return Design{
		Name:        "forward-hosts",
		Description: "crawled pages keyed host#page with the host forward (maps.google.com)",
		KeyFormat:   "P<host, maps.google.com>#<page, 6 digits>",
		Tag:         "crawl",
		BareForm:    "hosts",
		MinRows:     100,
		Families:    []string{"page"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindDomainNotReversed, prefix)}
		},
		generate: func(g designRun) error {
			keys := crawledKeys(g, func(host string) string { return host })
			return putOneCell(g, keys, "page", "html", func() int { return 2_000 + g.r.IntN(20_000) })
		},
	}
}

// hashedIDsDesign: documents keyed by a 32-digit hex hash of their ID.
func hashedIDsDesign() Design {
	return Design{
		Name:        "hashed-ids",
		Description: "documents keyed by a 128-bit hex hash: spread, but in no useful order",
		KeyFormat:   "P<32 hex digits>",
		Tag:         "docs",
		BareForm:    "hex",
		MinRows:     200,
		Families:    []string{"d"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindHashedKey, prefix)}
		},
		generate: func(g designRun) error {
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				return fmt.Sprintf("%s%016x%016x", g.prefix, g.r.Uint64(), g.r.Uint64()), randomTime(g.r, g.w.start, g.w.end)
			})
			return putOneCell(g, keys, "d", "body", func() int { return 500 + g.r.IntN(2_000) })
		},
	}
}

// emailKeysDesign: logins keyed by the user's e-mail address.
func emailKeysDesign() Design {
	return Design{
		Name:        "email-keys",
		Description: "logins keyed e-mail#millis: personal data in every key",
		KeyFormat:   "P<e-mail address>#<epoch millis>",
		Tag:         "logins",
		BareForm:    "emails",
		MinRows:     100,
		Families:    []string{"l"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindPIIInKey, prefix)}
		},
		generate: func(g designRun) error {
			people := make([]string, max(20, g.rows/10))
			for i := range people {
				people[i] = fmt.Sprintf("%s.%s%d@%s", pick(g.r, firstNames), pick(g.r, lastNames), g.r.IntN(100), pick(g.r, emailDomains))
			}
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end)
				return fmt.Sprintf("%s%s#%013d", g.prefix, pick(g.r, people), at.UnixMilli()), at
			})
			return putOneCell(g, keys, "l", "agent", func() int { return 80 + g.r.IntN(60) })
		},
	}
}

// unpaddedItemsDesign: order lines keyed order#item#n with n unpadded.
func unpaddedItemsDesign() Design {
	return Design{
		Name:        "unpadded-items",
		Description: "order lines keyed <order>#item#<n>, the line number unpadded (item#10 sorts before item#2)",
		KeyFormat:   "P<order, 6 digits>#item#<line, 1–2 digits>",
		Tag:         "lines",
		MinRows:     100,
		Families:    []string{"o"},
		planted: func(prefix string) []Location {
			return []Location{prefixLocation(kindUnpaddedNumber, prefix)}
		},
		generate: func(g designRun) error {
			var keys []timedKey
			seen := map[int]bool{}
			for len(keys) < g.rows {
				order := 100_000 + g.r.IntN(900_000)
				if seen[order] {
					continue
				}
				seen[order] = true
				at := randomTime(g.r, g.w.start, g.w.end)
				lines := 1 + g.r.IntN(15)
				if len(keys) == 0 {
					lines = 15 // one order of two-digit lines at least
				}
				for line := 1; line <= lines && len(keys) < g.rows; line++ {
					keys = append(keys, timedKey{fmt.Sprintf("%s%06d#item#%d", g.prefix, order, line), at.Add(time.Duration(line) * time.Millisecond)})
				}
			}
			slices.SortStableFunc(keys, func(a, b timedKey) int { return a.at.Compare(b.at) })
			return putOneCell(g, keys, "o", "line", func() int { return 40 + g.r.IntN(40) })
		},
	}
}

// Shape of the hot band: YCSB's hotspot distribution, the first fifth of
// the records taking four fifths of the updates.
const (
	hotBandKeyShare    = 0.2
	hotBandUpdateShare = 0.8
	hotBandUpdates     = 4 // per record
)

// hotBandDesign: YCSB records keyed user%08d whose first fifth takes four
// fifths of the updates: a wide band Bigtable can split and balance, to
// be watched rather than salted.
func hotBandDesign() Design {
	return Design{
		Name:        "hot-band",
		Description: "YCSB records user00000000… whose first 20% take 80% of the updates (a wide band, info)",
		KeyFormat:   "Puser<record, 8 digits>",
		Tag:         "ycsb",
		BareForm:    "word<number>",
		MinRows:     200,
		Families:    []string{"f"},
		expected: func(prefix string) []Location {
			return []Location{prefixLocation(kindHotKeyRange, prefix)}
		},
		generate: func(g designRun) error {
			versions := make([][]time.Time, g.rows)
			hot := max(1, int(float64(g.rows)*hotBandKeyShare))
			for i := range versions {
				versions[i] = []time.Time{randomTime(g.r, g.w.start, g.w.end)}
			}
			for range hotBandUpdates * g.rows {
				record := hot + g.r.IntN(max(1, g.rows-hot))
				if g.r.Float64() < hotBandUpdateShare || g.rows == hot {
					record = g.r.IntN(hot)
				}
				versions[record] = append(versions[record], randomTime(g.r, g.w.start, g.w.end))
			}
			for i, times := range versions {
				slices.SortFunc(times, func(a, b time.Time) int { return b.Compare(a) })
				times = slices.CompactFunc(times, time.Time.Equal)
				cells := make([]keyspace.Cell, len(times))
				for v, at := range times {
					cells[v] = cellAt("f", "field0", at, 100)
				}
				if err := g.put(fmt.Sprintf("%suser%08d", g.prefix, i), cells...); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
