package demo

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// goodDesigns are the designs the guide recommends: none raises a warning.
func goodDesigns() []Design {
	return []Design{
		entityReversedTimeDesign(),
		fieldPromotionDesign(),
		tenantPrefixDesign(),
		reversedDomainDesign(),
		saltedFeedDesign(),
		configSetDesign(),
	}
}

// entityReversedTimeDesign: device events keyed device first, then a
// reversed timestamp, so that a device's newest event is its first row.
func entityReversedTimeDesign() Design {
	return Design{
		Name:        "entity-reversed-time",
		Description: "device events keyed device, then Long.MAX_VALUE-millis: writes spread over devices, newest first",
		KeyFormat:   "P<device, 8 hex>#<19-digit reversed millis>",
		Good:        true,
		Tag:         "events",
		BareForm:    "hex",
		MinRows:     100,
		Families:    []string{"e"},
		generate: func(g designRun) error {
			devices := make([]uint32, max(20, g.rows/40))
			for i := range devices {
				devices[i] = g.r.Uint32()
			}
			weights := zipfWeights(len(devices), 0.3)
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end)
				return fmt.Sprintf("%s%08x#%s", g.prefix, devices[pickWeighted(g.r, weights)], reversedMillis(at)), at
			})
			return putOneCell(g, keys, "e", "json", func() int { return 60 + g.r.IntN(120) })
		},
	}
}

// stores are a gazetteer for field promotion: continent, country, city.
var stores = [][3]string{
	{"asia", "india", "mumbai"}, {"asia", "india", "delhi"}, {"asia", "japan", "osaka"}, {"asia", "japan", "tokyo"},
	{"europe", "france", "lyon"}, {"europe", "france", "paris"}, {"europe", "germany", "berlin"}, {"europe", "germany", "hamburg"},
	{"europe", "spain", "madrid"}, {"namerica", "canada", "toronto"}, {"namerica", "usa", "austin"}, {"namerica", "usa", "boston"},
	{"namerica", "usa", "denver"}, {"samerica", "brazil", "recife"}, {"samerica", "chile", "santiago"}, {"africa", "kenya", "nairobi"},
}

// fieldPromotionDesign: daily store sales keyed from general to specific,
// continent#country#city#store#day.
func fieldPromotionDesign() Design {
	return Design{
		Name:        "field-promotion",
		Description: "daily store sales keyed continent#country#city#store#yyyymmdd: general to specific",
		KeyFormat:   "P<continent>#<country>#<city>#<store, 4 digits>#<yyyymmdd>",
		Good:        true,
		Tag:         "sales",
		MinRows:     100,
		Families:    []string{"s"},
		generate: func(g designRun) error {
			shops := make([]string, max(10, g.rows/25))
			for i := range shops {
				place := stores[g.r.IntN(len(stores))]
				shops[i] = fmt.Sprintf("%s#%s#%s#%04d", place[0], place[1], place[2], g.r.IntN(10_000))
			}
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end)
				return fmt.Sprintf("%s%s#%s", g.prefix, pick(g.r, shops), dayOf(at)), at
			})
			return putOneCell(g, keys, "s", "totals", func() int { return 40 + g.r.IntN(60) })
		},
	}
}

// tenantPrefixDesign: per-device daily summaries of a few tenants, tenant
// first, so that dropping a tenant is one prefix delete.
func tenantPrefixDesign() Design {
	return Design{
		Name:        "tenant-prefixes",
		Description: "per-device daily summaries keyed tenant#device-kind#device#yyyymmdd, a handful of tenants",
		KeyFormat:   "P<tenant>#<device kind>#<device id, 4 digits>#<yyyymmdd>",
		Good:        true,
		Tag:         "iot",
		BareForm:    "words",
		MinRows:     100,
		Families:    []string{"m"},
		generate: func(g designRun) error {
			tenants := tenantNames[:3+g.r.IntN(6)]
			weights := zipfWeights(len(tenants), 0.5)
			keys := uniqueKeys(g.rows, func() (string, time.Time) {
				at := randomTime(g.r, g.w.start, g.w.end)
				return fmt.Sprintf("%s%s#%s#%04d#%s", g.prefix, tenants[pickWeighted(g.r, weights)], pick(g.r, deviceKinds),
					g.r.IntN(2_000), dayOf(at)), at
			})
			return putOneCell(g, keys, "m", "summary", func() int { return 80 + g.r.IntN(60) })
		},
	}
}

// hostsOf returns the host names of the demo's websites, forward
// (maps.google.com).
func hostsOf() []string {
	var hosts []string
	for _, site := range websites {
		for _, host := range site.hosts {
			if host == "" {
				hosts = append(hosts, site.domain)
			} else {
				hosts = append(hosts, host+"."+site.domain)
			}
		}
	}
	return hosts
}

// reverseHost writes a host name's labels in reverse order:
// maps.google.com becomes com.google.maps.
func reverseHost(host string) string {
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".")
}

// crawledKeys returns rows keys of crawled pages, host (written by host)
// then a padded page number, fetched at random times.
func crawledKeys(g designRun, host func(string) string) []timedKey {
	hosts := hostsOf()
	weights := zipfWeights(len(hosts), 0.6)
	return uniqueKeys(g.rows, func() (string, time.Time) {
		at := randomTime(g.r, g.w.start, g.w.end)
		return fmt.Sprintf("%s%s#%06d", g.prefix, host(hosts[pickWeighted(g.r, weights)]), g.r.IntN(1_000_000)), at
	})
}

// reversedDomainDesign: crawled pages keyed by reversed host name.
func reversedDomainDesign() Design {
	return Design{
		Name:        "reversed-domains",
		Description: "crawled pages keyed reversed host#page: a site's hosts are one range",
		KeyFormat:   "P<reversed host, com.google.maps>#<page, 6 digits>",
		Good:        true,
		Tag:         "pages",
		BareForm:    "hosts", // forward or reversed, host names read alike
		MinRows:     100,
		Families:    []string{"page"},
		generate: func(g designRun) error {
			keys := crawledKeys(g, reverseHost)
			return putOneCell(g, keys, "page", "html", func() int { return 2_000 + g.r.IntN(20_000) })
		},
	}
}

// feed returns a social feed's events: rows keys handle#post#millis where
// one celebrity handle takes celebrityShare of the rows and, of the last
// tenth of the window's writes, recentShare; the other handles share the
// rest with a mild skew. key turns a logical key into the stored one.
func feed(g designRun, celebrity string, celebrityShare, recentShare float64, key func(string) string) []timedKey {
	handles := make([]string, max(30, g.rows/15))
	seen := map[string]bool{celebrity: true}
	for i := range handles {
		handle := pick(g.r, firstNames) + "_" + pick(g.r, lastNames) + fmt.Sprint(g.r.IntN(100))
		for seen[handle] {
			handle = pick(g.r, firstNames) + "_" + pick(g.r, lastNames) + fmt.Sprint(g.r.IntN(100))
		}
		seen[handle] = true
		handles[i] = handle
	}
	weights := zipfWeights(len(handles), 0.6)
	recent := g.w.end.Add(-g.w.end.Sub(g.w.start) / 10)
	celebrityRows := int(float64(g.rows) * celebrityShare)
	// Of the celebrity's rows, enough fall in the recent tenth that she
	// takes recentShare of its writes.
	othersRecent := float64(g.rows-celebrityRows) / 10
	celebrityRecent := min(celebrityRows, int(recentShare/(1-recentShare)*othersRecent))
	n := 0
	return uniqueKeys(g.rows, func() (string, time.Time) {
		n++
		handle, at := handles[pickWeighted(g.r, weights)], randomTime(g.r, g.w.start, g.w.end)
		switch {
		case n <= celebrityRecent:
			handle, at = celebrity, randomTime(g.r, recent, g.w.end)
		case n <= celebrityRows:
			handle, at = celebrity, randomTime(g.r, g.w.start, recent)
		}
		post := g.r.IntN(max(1, g.rows/40))
		if handle != celebrity {
			post = g.r.IntN(5)
		}
		return key(fmt.Sprintf("%s#p%06d#%013d", handle, post, at.UnixMilli())), at
	})
}

// saltBucketsOfDesign is N in the salted feed's hash(key without time) mod N.
const saltBucketsOfDesign = 8

// saltedFeedDesign: a feed with a celebrity, salted by the hash of the key
// without its timestamp: each post's events stay together, the
// celebrity's posts spread over the buckets.
func saltedFeedDesign() Design {
	return Design{
		Name:        "salted-feed",
		Description: "an activity feed with a celebrity, salted with hash(handle#post) mod 8 in front",
		KeyFormat:   "P<hash(handle#post) mod 8>#<handle>#<post>#<epoch millis>",
		Good:        true,
		Tag:         "feed",
		BareForm:    "digits",
		MinRows:     400,
		Families:    []string{"event"},
		generate: func(g designRun) error {
			keys := feed(g, "mila_rosewood", 0.35, 0.6, func(logical string) string {
				h := fnv.New32a()
				h.Write([]byte(logical[:strings.LastIndexByte(logical, '#')]))
				return fmt.Sprintf("%s%d#%s", g.prefix, h.Sum32()%saltBucketsOfDesign, logical)
			})
			return putOneCell(g, keys, "event", "payload", func() int { return 60 + g.r.IntN(60) })
		},
	}
}

// configServices and configSettings name a config set's rows.
var (
	configServices = []string{"global", "billing", "search", "auth", "feed", "mobile", "web", "email"}
	configSettings = []string{"flags", "limits", "timeouts", "endpoints", "rollout", "experiments", "quotas", "banner"}
)

// configSetDesign: a small set of configuration rows, each rewritten a
// few times.
func configSetDesign() Design {
	return Design{
		Name:        "config-set",
		Description: "a few dozen configuration rows keyed service#setting, each with a few versions",
		KeyFormat:   "P<service>#<setting>",
		Good:        true,
		Tag:         "config",
		MinRows:     1,
		MaxRows:     len(configServices) * len(configSettings),
		Families:    []string{"c"},
		generate: func(g designRun) error {
			for i := range g.rows {
				key := g.prefix + configServices[i%len(configServices)] + "#" + configSettings[i/len(configServices)]
				versions := distinctTimes(g.r, 1+g.r.IntN(4), g.w.start, g.w.end)
				cells := make([]keyspace.Cell, len(versions))
				for v, at := range versions {
					cells[len(versions)-1-v] = cellAt("c", "json", at, 100+g.r.IntN(400))
				}
				if err := g.put(key, cells...); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
