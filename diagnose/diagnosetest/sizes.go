package diagnosetest

import (
	"fmt"
	"strings"
	"time"

	"github.com/btviz/btviz/keyspace"
)

// Keys of the oversized rows the size scenarios hold.
const (
	LargeRowKey  = "media#studio_ingest#raw-cam04-20261030"
	LargeCellKey = "media#finance_team#q3-board-pack-scan"
	MemusageRow  = "4c410523#memusage"
	WideRowKey   = "user#hub"
)

func sizeScenarios() []Scenario {
	month := demoNow.Add(-30 * 24 * time.Hour)
	return []Scenario{
		{
			Name: "large-row-and-cell", Families: []string{"blob", "meta"},
			Expect:    []string{"large-row", "large-cell"},
			Locations: []Location{{"large-row", LargeRowKey}, {"large-cell", LargeCellKey}},
			rows: func(put Put) {
				r := newRand(10)
				owners := make([]string, 60)
				for i := range owners {
					owners[i] = fmt.Sprintf("%s_%s%d", pick(r, firstNames), pick(r, lastNames), r.IntN(1000))
				}
				for range 1200 {
					at := randomTime(r, month, demoNow)
					put(fmt.Sprintf("media#%s#%08x", pick(r, owners), r.Uint32()),
						cell("meta", "json", at, 150), cell("blob", "thumb", at, 512+r.Int64N(1536)))
				}
				at := randomTime(r, month, demoNow)
				chunks := []keyspace.Cell{cell("meta", "json", at, 120)}
				for i := range 120 {
					chunks = append(chunks, cell("blob", fmt.Sprintf("chunk-%03d", i), at.Add(time.Duration(i)*time.Millisecond), 1<<20))
				}
				put(LargeRowKey, chunks...)
				put(LargeCellKey, cell("meta", "json", at, 110), cell("blob", "data", at, 12<<20))
			},
		},
		{
			Name: "memusage-single-row", Families: []string{"stats"},
			Expect:    []string{"frequently-updated-row"},
			Locations: []Location{{"frequently-updated-row", MemusageRow}},
			rows: func(put Put) {
				r := newRand(11)
				for range 30 {
					device := r.Uint32()
					for _, at := range sortedTimes(r, 80, demoNow.Add(-24*time.Hour), demoNow) {
						put(fmt.Sprintf("%08x#memusage#%013d", device, at.UnixMilli()), cell("stats", "memusage", at, 40))
					}
				}
				versions := make([]keyspace.Cell, 5000)
				for i := range versions {
					versions[i] = cell("stats", "memusage", demoNow.Add(-time.Duration(i+1)*15*time.Second), 40)
				}
				put(MemusageRow, versions...)
			},
		},
		{
			Name: "wide-row", Families: []string{"friends"},
			Expect:    []string{"wide-row"},
			Locations: []Location{{"wide-row", WideRowKey}},
			rows: func(put Put) {
				r := newRand(12)
				for i := range 300 {
					at := randomTime(r, month, demoNow)
					put(fmt.Sprintf("user#%04d", i), cell("friends", "f0001", at, 1), cell("friends", "f0002", at, 1))
				}
				friends := make([]keyspace.Cell, 100_000)
				at := randomTime(r, month, demoNow)
				for i := range friends {
					friends[i] = cell("friends", fmt.Sprintf("f%06d", i), at, 1)
				}
				put(WideRowKey, friends...)
			},
		},
		{
			Name: "long-row-keys", Families: []string{"d"},
			Expect: []string{"long-row-key"},
			rows: func(put Put) {
				r := newRand(13)
				filler := strings.Repeat("chapter-section-paragraph-", 200)[:4990]
				for i := range 300 {
					put(fmt.Sprintf("doc#%s%05d", filler, i), cell("d", "body", randomTime(r, month, demoNow), 300))
				}
			},
		},
		{
			Name: "too-many-families", Families: manyFamilies(120),
			Expect: []string{"too-many-column-families"},
			rows: func(put Put) {
				r := newRand(14)
				families := manyFamilies(120)
				for i := range 600 {
					at := randomTime(r, month, demoNow)
					put(fmt.Sprintf("item#%05d", i), cell(pick(r, families), "v", at, 20), cell(pick(r, families), "v", at, 20))
				}
			},
		},
		{
			// Real Bigtable: one tablet holds 20 times its neighbours.
			Name: "tablet-skew", Families: []string{"d"}, Source: keyspace.SourceBigtable,
			Expect:    []string{"tablet-skew"},
			Locations: []Location{{"tablet-skew", ""}},
			Ranges:    skewedTablets(),
			rows: func(put Put) {
				r := newRand(15)
				for i := range 3000 {
					put(fmt.Sprintf("acct#%05d", i*33), cell("d", "v", randomTime(r, month, demoNow), 200))
				}
			},
		},
	}
}

func manyFamilies(n int) []string {
	families := make([]string, n)
	for i := range families {
		families[i] = fmt.Sprintf("f%03d", i)
	}
	return families
}

// skewedTablets splits acct#00000..acct#99999 into six tablets, the
// fourth twenty times larger than the others.
func skewedTablets() []keyspace.Range {
	bounds := []string{"", "acct#16500", "acct#33000", "acct#49500", "acct#66000", "acct#82500", ""}
	ranges := make([]keyspace.Range, 6)
	for i := range ranges {
		ranges[i] = keyspace.Range{Start: keyspace.Key(bounds[i]), End: keyspace.Key(bounds[i+1]), SampledBytes: 1_000_000}
	}
	ranges[3].SampledBytes = 20_000_000
	return ranges
}
