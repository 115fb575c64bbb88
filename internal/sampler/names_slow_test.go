//go:build slow

package sampler

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/emutest"
)

// nameRows returns n rows keyed by user names rather than numbers, the
// way social applications key them (user#<name>#p<post>#<epoch ms>):
// 600 users of very different sizes (a few hold thousands of rows, most
// a few dozen), so the keys cluster at names the tablet boundaries do
// not predict.
func nameRows(n int) []testRow {
	first := []string{"alice", "amara", "bjorn", "bob", "carmen", "chloe", "dmitri", "emma", "felix", "hana", "ivan", "jin", "kofi", "lena", "mila", "noah", "olga", "priya", "quentin", "ravi", "sofia", "tariq", "uma", "valentina", "william", "xia", "yusuf", "zoe"}
	last := []string{"andersen", "bianchi", "haddad", "ito", "khan", "kowalski", "lopez", "moreau", "nguyen", "okafor", "petrov", "reyes", "rosewood", "sato", "schmidt", "silva", "smith", "tanaka", "walker", "zhang"}
	users := make([]string, 0, 600)
	for i := 0; len(users) < cap(users); i++ {
		users = append(users, fmt.Sprintf("%s_%s%d", first[i%len(first)], last[(i/len(first))%len(last)], i%97))
	}
	weights := make([]float64, len(users))
	var total float64
	for i := range weights {
		h := uint64(i)*0x9e3779b97f4a7c15 + 7
		h ^= h >> 31
		weights[i] = 1 / float64(1+h%200) // a long tail and a few heavy users
		total += weights[i]
	}
	rows := make([]testRow, 0, n)
	for u, user := range users {
		count := int(math.Round(float64(n) * weights[u] / total))
		for j := 0; j < count; j++ {
			ts := fixtureBase/1000 + int64(j)*37_000
			key := fmt.Sprintf("user#%s#p%06d#%013d", user, j/7, ts)
			h := uint64(len(rows))*0xbf58476d1ce4e5b9 + 11
			h ^= h >> 27
			rows = append(rows, testRow{key: key, cells: []testCell{{"m", "body", ts * 1000, 40 + int(h%400)}}})
		}
	}
	return rows
}

// On tablets, a table keyed by names is sampled as one keyed by numbers:
// at 1% the server reads its 50 tablets' probes, 8 keys each, beside 20
// rows of spans, and the spans that fall on a user's cluster read on
// before they stand for their width; that sampling is held to 2.5% of
// the rows and 500 more. The cloud-like server is an emulator whose spans
// weigh what tablets would, so every scan also counts three spans' keys,
// 3×checkRows, to confirm they are tablets (see
// scanner.medianSpanHoldsTablet; Cloud Bigtable's spans are never
// checked). Measured over 12 runs of 20 seeds on 100,006 rows: 2.37–3.14%
// read (median 2.67%, 99th percentile 3.06%), and 1.99–2.65% (median
// 2.28%) over 8 runs before the check read three spans rather than one;
// the bound is 3,600 rows.
//
// No tablet that holds bytes is estimated at zero rows (as 41 of 50 were
// before tablets whose spans find nothing were swept), the total is within
// 10%, and the 95% interval holds the true count in at least 14 scans of
// 20. One in three used to miss it. Over nine runs of 20 seeds it held in
// 167 of 180 (93%), and in 15 of 20 in the worst run: the seeds of one run
// share its tablet map (the emulator's random sample places the
// boundaries), on which the per-tablet ratios run from 0.2% below to 3%
// above the true count, a bias the interval leaves out.
//
// The users' shares are logged, not checked (issue 26): over those 400
// scans the worst user was off by 2.5 points in the median scan, 3.1 at
// the 90th percentile, and by 9–15 points in 11 scans. The 7 of them
// traced were all in the large tablet (17,000 rows of about 110 users):
// its spans, spread over its line, fall between its users' clusters, and
// the one or two that find a cluster stand for the whole tablet, so one
// user of 700–2,400 rows is estimated at 10,000–17,000.
func TestCloudLikeSampleOfNameKeys(t *testing.T) {
	counter := &cloudlike.Counter{}
	// Uneven tablets: the large one holds a sixth of the table, above the
	// re-read floor, and is swept like the others when its spans find
	// nothing (it used to be read again in full, a sixth of the table).
	srv := emutest.Start(t, cloudlike.ServerOptions(cloudlike.Uneven(50, 10, 0.2), counter)...)
	conn := emutest.Open(t, emutest.Target(srv.Addr))
	createTable(t, conn, "t", "m", "meta")
	rows := nameRows(100_000)
	load(t, conn, "t", rows)
	ctx := context.Background()
	full, err := Scan(ctx, conn, "t", Options{Full: true, Delimiters: "#"})
	if err != nil {
		t.Fatal(err)
	}
	const seeds = 20
	missed := 0
	for seed := range uint64(seeds) {
		counter.Reset()
		snap, err := Scan(ctx, conn, "t", Options{Fraction: 0.01, Seed: seed, Delimiters: "#"})
		if err != nil {
			t.Fatal(err)
		}
		read, n := counter.Rows(), int64(len(rows))
		scan := snap.Scan
		zero := 0
		for _, r := range snap.Ranges {
			if r.Rows == 0 && r.SampledBytes > 0 {
				zero++
			}
		}
		worst, who := worstUserShareError(full, snap)
		t.Logf("seed %d: %s; %d rows read at the server (%.2f%%), estimate %d [%d, %d] of %d; %d tablets at zero rows; worst user share %.2f pp (%s)",
			seed, scan.ModeText(), read, 100*float64(read)/float64(n), scan.RowsEstimated, scan.RowsEstimatedLow, scan.RowsEstimatedHigh, n, zero, 100*worst, who)
		if zero > 0 {
			t.Errorf("seed %d: %d tablets holding bytes are estimated at zero rows", seed, zero)
		}
		if float64(read) > 0.025*float64(n)+500+3*checkRows {
			t.Errorf("seed %d: the server read %d rows of %d", seed, read, n)
		}
		if math.Abs(float64(scan.RowsEstimated-n)) > 0.1*float64(n) {
			t.Errorf("seed %d: estimated %d rows of %d", seed, scan.RowsEstimated, n)
		}
		if n < scan.RowsEstimatedLow || n > scan.RowsEstimatedHigh {
			t.Logf("seed %d: %d rows lie outside the interval", seed, n)
			missed++
		}
	}
	if missed > seeds-14 {
		t.Errorf("the interval missed the true count in %d scans of %d", missed, seeds)
	}
}

// worstUserShareError returns how far, at most, a user's share of the
// rows in sample is from its share in full, and in words which user that
// is, with its rows in both.
func worstUserShareError(full, sample *keyspace.Snapshot) (float64, string) {
	rows := func(snap *keyspace.Snapshot) map[string]float64 {
		out := map[string]float64{}
		for _, top := range snap.Root.Children {
			for _, user := range top.Children {
				out[string(user.Prefix)] = user.Rows
			}
		}
		return out
	}
	want, got := rows(full), rows(sample)
	worst, who := 0.0, ""
	for user, n := range want {
		if off := math.Abs(got[user]/sample.Root.Rows - n/full.Root.Rows); off > worst {
			worst, who = off, fmt.Sprintf("%s: %.0f rows estimated, %.0f true", user, got[user], n)
		}
	}
	return worst, who
}
