package diagnosetest

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// sites are registrable domains and their host labels ("" is the bare
// domain), most popular first.
var sites = []struct {
	domain string
	hosts  []string
}{
	{"google.com", []string{"www", "maps", "mail", "docs", "news"}},
	{"wikipedia.org", []string{"en", "de", "fr", "ja"}},
	{"youtube.com", []string{"www", "m", "music"}},
	{"github.com", []string{"", "gist", "docs", "api"}},
	{"bbc.co.uk", []string{"www", "news", "sport"}},
	{"amazon.de", []string{"www", "sellercentral"}},
	{"reddit.com", []string{"www", "old"}},
	{"nytimes.com", []string{"www", "cooking"}},
	{"stackoverflow.com", []string{"", "meta"}},
	{"apple.com", []string{"www", "developer", "support"}},
	{"go.dev", []string{"", "pkg", "tour"}},
	{"nasa.gov", []string{"www", "science"}},
	{"who.int", []string{"www", "apps"}},
	{"ox.ac.uk", []string{"www", "maths"}},
	{"python.org", []string{"www", "docs", "pypi"}},
	{"mozilla.org", []string{"developer", "www", "addons"}},
}

var pathWords = []string{"about", "news", "world", "science", "sport", "music", "travel", "help", "docs", "guide"}

// pages returns 3,000 crawled pages as host labels (most specific first)
// and a path.
func pages() [][2]string {
	r := newRand(9)
	seen := map[string]bool{}
	var out [][2]string
	for len(out) < 3000 {
		site := sites[min(r.IntN(len(sites)), r.IntN(len(sites)))]
		host := site.domain
		if sub := pick(r, site.hosts); sub != "" {
			host = sub + "." + host
		}
		path := fmt.Sprintf("/%s/%s-%d", pick(r, pathWords), pick(r, pathWords), r.IntN(1_000_000))
		if !seen[host+path] {
			seen[host+path] = true
			out = append(out, [2]string{host, path})
		}
	}
	return out
}

func reverseHost(host string) string {
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ".")
}

func webScenarios() []Scenario {
	put := func(put Put, key string, i int) {
		at := demoNow.Add(-time.Duration(i%(30*24)) * time.Hour)
		put(key, cell("contents", "html", at, 600), cell("meta", "fetch", at, 90))
	}
	return []Scenario{
		{
			Name: "web-domains-forward", Families: []string{"contents", "meta"},
			Expect: []string{"domain-not-reversed"},
			rows: func(p Put) {
				for i, page := range pages() {
					put(p, page[0]+page[1], i)
				}
			},
		},
		{
			Name: "web-domains-reversed", Good: true, Families: []string{"contents", "meta"},
			rows: func(p Put) {
				for i, page := range pages() {
					put(p, reverseHost(page[0])+page[1], i)
				}
			},
		},
	}
}
