package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// A web crawl ("webtable"): one row per fetched page, keyed by host and path,
// with the host forward and reversed.
const (
	webPages  = 20_000
	webWindow = 30 * 24 * time.Hour
)

// website is a registrable domain and the hosts the crawl found under it.
type website struct {
	domain string
	hosts  []string // subdomain labels; "" is the bare domain
}

// websites are ordered by popularity: the crawl picks them with a Zipf skew
// of 0.6, so the most popular domain holds about 11 % of the pages (13 % with
// cloud.google.com) and none dominates.
var websites = []website{
	{"google.com", []string{"www", "maps", "mail", "docs", "news", "drive", "support"}},
	{"wikipedia.org", []string{"en", "de", "fr", "ja", "es", "it"}},
	{"youtube.com", []string{"www", "m", "music"}},
	{"github.com", []string{"", "gist", "docs", "api", "education"}},
	{"bbc.co.uk", []string{"www", "news", "sport"}},
	{"amazon.de", []string{"www", "sellercentral", "music"}},
	{"reddit.com", []string{"www", "old", "new"}},
	{"nytimes.com", []string{"www", "cooking", "games"}},
	{"stackoverflow.com", []string{"", "meta", "careers"}},
	{"apple.com", []string{"www", "developer", "support", "music"}},
	{"microsoft.com", []string{"www", "learn", "azure", "support"}},
	{"spiegel.de", []string{"www", "m"}},
	{"lemonde.fr", []string{"www", "abonnes"}},
	{"mozilla.org", []string{"developer", "www", "support", "addons"}},
	{"cloud.google.com", []string{"", "console"}},
	{"python.org", []string{"www", "docs", "pypi", "discuss"}},
	{"go.dev", []string{"", "pkg", "tour"}},
	{"rust-lang.org", []string{"www", "doc", "blog"}},
	{"nasa.gov", []string{"www", "science", "earthdata"}},
	{"who.int", []string{"www", "apps"}},
	{"europa.eu", []string{"commission", "ec", "eur-lex", "data"}},
	{"ox.ac.uk", []string{"www", "maths", "bodleian"}},
	{"abc.net.au", []string{"www", "iview"}},
	{"rakuten.co.jp", []string{"www", "travel", "books"}},
	{"globo.com", []string{"g1", "ge", "www"}},
	{"naver.com", []string{"www", "news", "blog"}},
	{"yandex.ru", []string{"www", "music", "maps"}},
	{"archive.org", []string{"web", "www", "blog"}},
	{"medium.com", []string{"", "blog", "towardsdatascience"}},
	{"openstreetmap.org", []string{"www", "wiki", "tile"}},
	{"weather.gov", []string{"www", "forecast", "radar"}},
	{"ikea.com", []string{"www", "about"}},
	{"bahn.de", []string{"www", "int"}},
	{"zalando.de", []string{"www", "corporate"}},
	{"booking.com", []string{"www", "partner"}},
	{"airbnb.com", []string{"www", "news"}},
	{"cnn.com", []string{"edition", "www", "money"}},
	{"theguardian.com", []string{"www", "jobs"}},
	{"etsy.com", []string{"www", "help"}},
	{"imdb.com", []string{"www", "m", "pro"}},
}

var pathWords = []string{
	"about", "news", "world", "europe", "science", "sport", "music", "travel", "help", "docs",
	"guide", "release", "notes", "search", "place", "product", "review", "video", "watch", "blog",
	"post", "article", "category", "tags", "user", "profile", "settings", "pricing", "download", "api",
	"reference", "tutorial", "weather", "forecast", "recipe", "archive", "2025", "2026", "index", "faq",
}

// crawledPage is one fetched page.
type crawledPage struct {
	labels  []string // host labels, most specific first: maps, google, com
	path    string   // starts with "/"
	at      time.Time
	html    int // bytes of the page's HTML
	fetched int // bytes of the JSON fetch record
}

// forwardKey is host and path as they appear in the URL:
// maps.google.com/maps/place/….
func (p crawledPage) forwardKey() string { return strings.Join(p.labels, ".") + p.path }

// reversedKey is the host with its labels reversed, then the path:
// com.google.maps/maps/place/….
func (p crawledPage) reversedKey() string {
	labels := slices.Clone(p.labels)
	slices.Reverse(labels)
	return strings.Join(labels, ".") + p.path
}

// crawledPages returns the pages both web scenarios store, in crawl order.
func crawledPages() []crawledPage {
	r := newRand("web-crawl")
	w := lastWindow(webWindow)
	weights := zipfWeights(len(websites), 0.6)
	seen := make(map[string]bool, webPages)
	pages := make([]crawledPage, 0, webPages)
	for len(pages) < webPages {
		site := websites[pickWeighted(r, weights)]
		var labels []string
		if sub := pick(r, site.hosts); sub != "" {
			labels = append(labels, sub)
		}
		labels = append(labels, strings.Split(site.domain, ".")...)
		page := crawledPage{labels: labels, path: randomPath(r)}
		if key := page.forwardKey(); seen[key] {
			continue
		} else {
			seen[key] = true
		}
		page.at = randomTime(r, w.start, w.end)
		page.html = pageHTML(r, page.forwardKey())
		page.fetched = measure(`{"status":%d,"content_type":"text/html; charset=utf-8","bytes":%d,"fetch_ms":%d}`,
			pick(r, []int{200, 200, 200, 200, 200, 200, 301, 404}), 8_000+r.IntN(180_000), 40+r.IntN(900))
		pages = append(pages, page)
	}
	return pages
}

// randomPath is a plausible URL path: /section/slug-12345 and the like.
func randomPath(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(3) {
		b.WriteByte('/')
		b.WriteString(pick(r, pathWords))
	}
	switch r.IntN(3) {
	case 0:
		fmt.Fprintf(&b, "/%s-%d", pick(r, pathWords), r.IntN(10_000_000))
	case 1:
		fmt.Fprintf(&b, "/%d", r.IntN(1_000_000))
	default:
		b.WriteString(".html")
	}
	return b.String()
}

// pageHTML is the size of the start of a fetched page, 250–650 bytes,
// built word by word as the crawler stored it.
func pageHTML(r *rand.Rand, url string) int {
	html := fmt.Appendf(nil, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s | %s</title><link rel=\"canonical\" href=\"https://%s\"></head><body><main><h1>%s</h1><p>",
		pick(r, pathWords), url[:strings.IndexByte(url, '/')], url, pick(r, pathWords))
	for target := 250 + r.IntN(400); len(html) < target; {
		html = append(html, pick(r, pathWords)...)
		html = append(html, ' ')
	}
	return len(html) + len("</p></main></body></html>")
}

// domainsForwardScenario: crawled pages keyed by the host as written
// (bad).
//
// Key: <host>/<path>, e.g. maps.google.com/maps/place/cafe-1234567. Rows:
// 20,000 pages of 40 sites (Zipf 0.6: google.com about 13 %), crawled at
// random times in the last 30 days, with cells contents:html (250–650 B)
// and meta:fetch (JSON, ~90 B). Pages of one site scatter over the key
// space by subdomain (www.…, maps.…, docs.…). Expects domain-not-reversed,
// table-wide.
func domainsForwardScenario() Scenario {
	w := lastWindow(webWindow)
	return Scenario{
		Name:        "web-domains-forward",
		Description: "crawled pages keyed maps.google.com/path: one site's pages scatter by subdomain (bad)",
		KeyFormat:   "<host, e.g. maps.google.com>/<path>",
		Expect:      []string{kindDomainNotReversed},
		Families:    []string{"contents", "meta"},
		Rows:        webPages,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate:    writeCrawledPages(crawledPage.forwardKey),
	}
}

// writeCrawledPages writes every crawled page under the key that key
// gives it.
func writeCrawledPages(key func(crawledPage) string) func(Put) error {
	return func(put Put) error {
		for _, p := range crawledPages() {
			if err := put(key(p), cellAt("contents", "html", p.at, p.html), cellAt("meta", "fetch", p.at, p.fetched)); err != nil {
				return err
			}
		}
		return nil
	}
}

// domainsReversedScenario: the same pages keyed by the reversed host
// (good).
//
// Key: <reversed host>/<path>, e.g. com.google.maps/maps/place/cafe-1234567.
// Rows: 20,000, the same cells as web-domains-forward; every site's pages
// are one contiguous range (com.google.…) and no site dominates. Expects no
// finding.
func domainsReversedScenario() Scenario {
	w := lastWindow(webWindow)
	return Scenario{
		Name:        "web-domains-reversed",
		Description: "the same pages keyed com.google.maps/path: each site is one contiguous range (good)",
		KeyFormat:   "<reversed host, e.g. com.google.maps>/<path>",
		Good:        true,
		Families:    []string{"contents", "meta"},
		Rows:        webPages,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate:    writeCrawledPages(crawledPage.reversedKey),
	}
}
