package sampler

import (
	"math"
	"slices"
	"testing"
)

// A piece whose head lay where its kin's line is blind takes what the
// reads missed (see [unplaceBlind]): the two pieces of the trace of
// [pieceRead.blindHead], the end of d7vj3# and the start of l4m#, their
// spans' estimates, standard deviations and counts of spans that read a
// row as read at 10% and at 1% (names alone: the split shares by each
// piece's own count, see [pieceRead.estimate]). At 10% the reads saw
// 21% less than the tablet holds: taken at its spans' word, l4m# left
// the rest to d7vj3# (+43%); blind, it takes it and both come within 3%.
// At 1% the reads saw more than the tablet holds, the error d7vj3#'s
// (5 spans, twice its size), and the split is left as it was.
func TestBlindPieceTakesWhatTheReadsMissed(t *testing.T) {
	truth := []float64{1_183_275, 1_364_085} // d7vj3#'s end, l4m#'s start
	total := truth[0] + truth[1]
	for _, c := range []struct {
		fraction, coverage float64
		bytes, sd          [2]float64
		hits               [2]int
	}{
		{0.1, 0.2137, [2]float64{1_159_297, 840_856}, [2]float64{158_830, 44_731}, [2]int{51, 643}},
		{0.01, 0.0187, [2]float64{2_341_612, 557_455}, [2]float64{860_065, 188_890}, [2]int{5, 45}},
	} {
		split := func(blind bool) []float64 {
			found := make([]pieceRead, 2)
			est := make([]pieceEstimate, 2)
			var seen float64
			for h := range found {
				found[h] = pieceRead{coverage: c.coverage, rows: c.bytes[h] / 32 * c.coverage, headRows: headRows}
				v := c.sd[h] * c.sd[h]
				est[h] = pieceEstimate{bytes: c.bytes[h], variance: v, spans: v,
					share: namesSpread * c.bytes[h] * c.bytes[h] * (1 - c.coverage) / float64(c.hits[h])}
				seen += c.bytes[h]
			}
			found[1].headBlind = blind // l4m#'s head: 32 rows at 0.0000 of its line
			if found[1].blindHead() != blind {
				t.Fatalf("%g: l4m#'s head judged blind %v, want %v", c.fraction, !blind, blind)
			}
			unplaceBlind(est, found, total, seen, total)
			bytes, _, _ := splitPieces(total, est, found)
			return bytes
		}
		asRead, blind := split(false), split(true)
		for h, name := range []string{"d7vj3#", "l4m#"} {
			off, offBlind := asRead[h]/truth[h]-1, blind[h]/truth[h]-1
			t.Logf("%g: %s as read %.0f (%+.1f%%), blind %.0f (%+.1f%%), truly %.0f", c.fraction, name, asRead[h], 100*off, blind[h], 100*offBlind, truth[h])
			switch {
			case c.fraction == 0.1 && math.Abs(offBlind) > 0.03:
				t.Errorf("10%%: with l4m#'s head blind, %s came out %+.1f%%, want within 3%%", name, 100*offBlind)
			case c.fraction == 0.1 && name == "d7vj3#" && off < 0.2:
				t.Errorf("10%%: taken at its spans' word, l4m# left d7vj3# %+.1f%%, not the rest: the test no longer builds the case", 100*off)
			case c.fraction == 0.01 && blind[h] != asRead[h]:
				t.Errorf("1%%: the reads saw more than the tablet holds, and %s moved from %.0f to %.0f", name, asRead[h], blind[h])
			}
		}
	}
}

// A sweep's part cut short where its kin's line is blind is not carried
// along that line (see [sweptCut.placed]). Three datasets keyed by the
// same users: the maps of a# and b# know 300 keys each and c#'s 12, none
// of them before the first names starting with b (the kin learn from the
// tablets inside their prefixes, and the first names lie where each
// prefix starts). A sweep of c# from its first key, over the first
// eighth of its line, reads 64 rows, all of first names starting with a:
// the line puts them at next to none of the part, and carried to the
// part's end they would stand for 64–119 times the rows the part holds
// (seeds 0–3); the part is not placed. A part whose read ended where the
// kin know keys (the fifth eighth) is placed, and its carry lies within
// a factor 3 of the truth (4–8% off). The seeds are fixed: the test is
// deterministic.
func TestSweptPartWhereTheKinAreBlindIsNotPlaced(t *testing.T) {
	for seed := range uint64(4) {
		byPrefix := namesOfKin(seed)
		later := map[string][]string{}
		for prefix, keys := range byPrefix {
			for _, key := range keys {
				if key[len(prefix):] >= "b" {
					later[prefix] = append(later[prefix], key)
				}
			}
		}
		maps := newKeyMaps(topPrefixer("#"))
		learnDrawn(maps, later, seed, "a#", 300)
		learnDrawn(maps, later, seed, "b#", 300)
		learnDrawn(maps, later, seed, "c#", 12)
		maps.judge()
		if maps.maps["c#"].kin == nil {
			t.Fatalf("seed %d: c#, of 12 known names its kin hold too, does not take their line", seed)
		}
		keys := byPrefix["c#"]
		line := lineOfC(maps, byPrefix)
		// carry returns the part [from, to) of the line read from its first
		// key for 64 rows: whether it is placed, the rows its carry along
		// the line stands for and the rows the part holds.
		carry := func(from, to float64) (bool, float64, float64) {
			first, _ := slices.BinarySearch(keys, line.at(from))
			last := keys[min(first+63, len(keys)-1)]
			holds := 0
			for _, key := range keys[first:] {
				if line.share(key) < to {
					holds++
				}
			}
			c := sweptCut{from: from, to: to, last: last, bytes: 64}
			readTo, placed := c.placed(line)
			return placed, c.onLine(readTo), float64(holds)
		}
		blindPlaced, blindCarry, blindHolds := carry(0, 0.125)
		midPlaced, midCarry, midHolds := carry(0.5, 0.625)
		t.Logf("seed %d: %d keys of c#; the first eighth of its line holds %.0f rows, carried %.3g, placed %v; the fifth eighth holds %.0f, carried %.0f, placed %v",
			seed, len(keys), blindHolds, blindCarry, blindPlaced, midHolds, midCarry, midPlaced)
		if blindPlaced {
			t.Errorf("seed %d: a sweep's 64 rows of first names the kin do not know are placed on their line (carried to %.3g rows, the part holds %.0f)", seed, blindCarry, blindHolds)
		}
		if blindCarry < 10*blindHolds {
			t.Errorf("seed %d: carried along the blind line, the part's 64 rows stand for %.3g rows, it holds %.0f: the test no longer builds the case", seed, blindCarry, blindHolds)
		}
		if !midPlaced || midCarry > 3*midHolds || 3*midCarry < midHolds {
			t.Errorf("seed %d: a part read where the kin know keys: placed %v, carried to %.0f rows, holds %.0f; want placed within a factor 3", seed, midPlaced, midCarry, midHolds)
		}
	}
}
