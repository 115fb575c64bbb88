package keyspace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestStratumOf(t *testing.T) {
	for key, want := range map[string]string{
		"user#u0042#item#007":         "user",
		"invoice1234":                 "invoice",
		"1793480112345#sensor07":      "d13",
		"1793480112":                  "d10",
		"3#user#mila":                 "d1",
		"4c410523#memusage":           "x8",
		"cafe1234#9223370":            "x8",
		"maps.google.com#000001":      "w.",
		"alice_smith12#p01":           "w_",
		"alice.smith@example.com":     "w.",
		"config#global":               "config",
		"deadbeef":                    "x8",
		"defaults#x":                  "defaults",
		"\x00\x01":                    "\x00",
		"":                            "",
		"averyveryverylongwordindeed": "averyveryverylon",
	} {
		if got := stratumOf(key); got != want {
			t.Errorf("stratumOf(%q) = %q, want %q", key, got, want)
		}
	}
}

// TestStratumMemoAgrees: the memo a scan asks in key order gives every
// key the stratum stratumOf gives it, over keys drawn from pieces that
// end runs of every kind early, late or not at all (a key that is a
// prefix of the next, a run that goes on in the next key). Seeds 0–199,
// keys sorted and in the order drawn.
func TestStratumMemoAgrees(t *testing.T) {
	pieces := []string{"", "a", "user", "greeting", "cafe", "deadbeef", "1", "17934801", "#", ".", "_", "@", "-", "x", "9f", "Z", "\x00", "\xff"}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		keys := make([]string, 300)
		for i := range keys {
			var b strings.Builder
			for range 1 + rng.IntN(4) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			keys[i] = b.String()
		}
		for _, order := range []string{"drawn", "sorted"} {
			if order == "sorted" {
				slices.Sort(keys)
			}
			var memo stratumMemo
			for _, key := range keys {
				if got, want := memo.of(key), stratumOf(key); got != want {
					t.Fatalf("seed %d, %s: memo gives %q the stratum %q, stratumOf %q", seed, order, key, got, want)
				}
			}
		}
	}
}

// TestStrataRememberOnlyAStratumTheyKeep: the stratum strata.offer
// remembers from the row before gives the reservoirs and the strata given
// up that looking every row up gives, through more strata than keep a
// reservoir (dropLargest), more given up than are named
// (maxDroppedStrata), and absorb, with rows offered after it. Keys are
// runs of one to ten rows under random words, a third of them one large
// stratum's, so that strata repeat, end and come back; seeds 0–5.
func TestStrataRememberOnlyAStratumTheyKeep(t *testing.T) {
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 11))
		var rows []weightedRow
		for len(rows) < 60_000 {
			word := make([]byte, 1+rng.IntN(4))
			for i := range word {
				word[i] = byte('g' + rng.IntN(20))
			}
			if rng.IntN(3) == 0 {
				word = []byte("big") // a stratum large enough to be given up
			}
			for i := range 1 + rng.IntN(10) {
				if seed%2 == 1 && rng.IntN(8) == 0 {
					word = []byte{byte('g' + rng.IntN(20))} // a short stratum between
				}
				rows = append(rows, weightedRow{key: rng.Float64(), row: SampledRow{Key: Key(fmt.Sprintf("%s#%d", word, i)), Weight: 1 + float64(rng.IntN(3))}})
			}
		}
		run := func(remember bool) strata {
			chunks := make([]strata, 3)
			for i, w := range rows {
				c := &chunks[min(2, i*3/len(rows))]
				if !remember {
					c.last = nil
				}
				c.offer(stratumOf(string(w.row.Key)), w)
			}
			chunks[0].absorb(&chunks[1])
			for _, w := range rows[:len(rows)/3] {
				if !remember {
					chunks[0].last = nil
				}
				chunks[0].offer(stratumOf(string(w.row.Key))+"+", w)
			}
			chunks[0].absorb(&chunks[2])
			chunks[0].lastName, chunks[0].last = "", nil
			return chunks[0]
		}
		remembered, looked := run(true), run(false)
		if len(looked.dropped) < maxDroppedStrata || !looked.dropped["big"] {
			t.Fatalf("seed %d: %d strata given up (the large one: %v), want at least %d and the large one", seed, len(looked.dropped), looked.dropped["big"], maxDroppedStrata)
		}
		if !reflect.DeepEqual(remembered, looked) {
			t.Errorf("seed %d: remembering the last stratum kept %d reservoirs and gave up %d; looking every row up kept %d and gave up %d, or other rows",
				seed, len(remembered.byName), len(remembered.dropped), len(looked.byName), len(looked.dropped))
		}
	}
}

// TestSmallDatasetKeepsItsRows: a dataset of 300 rows in a table of
// 100,300 keeps all its rows in the sample (a uniform sample of 2,000
// would hold 6), each of weight 1, while the weights still add up to the
// table's rows and the large dataset's rows stand for the rest.
func TestSmallDatasetKeepsItsRows(t *testing.T) {
	for _, chunks := range []int{1, 4} {
		builders := make([]*Builder, chunks)
		for i := range builders {
			builders[i] = newTestBuilder(Options{Delimiters: "#", SampleSize: 2_000, Seed: uint64(i + 1)})
		}
		var keys []string
		for i := range 100_000 {
			keys = append(keys, fmt.Sprintf("big#%06d", i))
		}
		for i := range 300 {
			keys = append(keys, fmt.Sprintf("small#%04d", i))
		}
		for i, key := range keys {
			builders[i*chunks/len(keys)].Add(row(key, 1, cell("f", "q", base, 10)))
		}
		b := builders[0]
		for _, sub := range builders[1:] {
			if err := b.Append(sub); err != nil {
				t.Fatal(err)
			}
		}
		snap := b.Snapshot()
		var small, total, smallWeight float64
		for _, s := range snap.Sample {
			total += s.Weight
			if strings.HasPrefix(string(s.Key), "small#") {
				small++
				smallWeight += s.Weight
			}
		}
		if small != 300 || math.Abs(smallWeight-300) > 1e-6 {
			t.Errorf("%d chunks: the small dataset has %v sampled rows of total weight %v, want all 300 of weight 1", chunks, small, smallWeight)
		}
		if math.Abs(total-float64(len(keys))) > 1e-6 {
			t.Errorf("%d chunks: sample weights add up to %v, want %d", chunks, total, len(keys))
		}
	}
}

// TestStrataGiveUpTheLargest: past maxStrata strata, the one offered the
// most rows gives its reservoir up when it is large (the uniform sample
// holds it well) to the small stratum that comes next; when none is
// large, a newcomer keeps none instead.
func TestStrataGiveUpTheLargest(t *testing.T) {
	for _, largest := range []int{largeStratum + 1000, largeStratum - 1000} {
		b := newTestBuilder(Options{Delimiters: "#", SampleSize: 500, Seed: 1})
		name := func(s int) string {
			return "w" + strings.Repeat("a", s%7) + string(rune('a'+s%26)) + string(rune('a'+s/26))
		}
		for s := range maxStrata + 10 {
			rows := 50
			if s == 0 {
				rows = largest
			}
			for i := range rows {
				b.Add(row(fmt.Sprintf("%s#%05d", name(s), i), 1, cell("f", "q", base, 10)))
			}
		}
		strata := b.sample.strata.byName
		if n := len(strata); n > maxStrata {
			t.Fatalf("%d strata keep reservoirs, want at most %d", n, maxStrata)
		}
		large := largest >= largeStratum
		if (strata[name(0)] == nil) != large {
			t.Errorf("the largest stratum, offered %d rows, kept its reservoir: %v", largest, strata[name(0)] != nil)
		}
		// The first stratum past the limit takes the large one's place;
		// the next find no room.
		if (strata[name(maxStrata)] != nil) != large || strata[name(maxStrata+9)] != nil {
			t.Errorf("with the largest offered %d rows, the strata past the limit kept reservoirs: %v, %v",
				largest, strata[name(maxStrata)] != nil, strata[name(maxStrata+9)] != nil)
		}
	}
}
