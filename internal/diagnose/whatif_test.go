package diagnose

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/testkit/tier"
)

func runWhatIf(t *testing.T, scenario, transform string) *WhatIf {
	t.Helper()
	tr, err := ParseTransform(transform)
	if err != nil {
		t.Fatal(err)
	}
	w, err := RunWhatIf(scenarioSnapshot(t, scenario), tr)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func changeOf(w *WhatIf, kind Kind) (FindingChange, bool) {
	for _, c := range w.Changes {
		if c.Kind == kind {
			return c, true
		}
	}
	return FindingChange{}, false
}

// TestWhatIfSaltSpreadsTheCelebrity: salt(8) leaves the celebrity's
// largest piece with about an eighth of her share, and the hot range goes.
func TestWhatIfSaltSpreadsTheCelebrity(t *testing.T) {
	w := runWhatIf(t, "social-celebrity", "salt(8)")
	if len(w.HotRanges) != 1 {
		t.Fatalf("%d hot ranges followed, want 1", len(w.HotRanges))
	}
	hot := w.HotRanges[0]
	if hot.Prefix != keyspace.Key("user#mila_rosewood#") || hot.Pieces != 8 {
		t.Fatalf("followed %q into %d pieces, want the celebrity into 8", hot.Prefix, hot.Pieces)
	}
	// An eighth, give or take the hash's unevenness on 7,600 rows.
	if ratio := hot.AfterRowShare / hot.BeforeRowShare; ratio < 0.1 || ratio > 0.16 {
		t.Errorf("largest piece holds %.3f of rows, %.3f of the %.3f before: want about 1/8", hot.AfterRowShare, ratio, hot.BeforeRowShare)
	}
	if ratio := hot.AfterRecentShare / hot.BeforeRecentShare; ratio < 0.1 || ratio > 0.2 {
		t.Errorf("largest piece holds %.3f of recent writes, %.3f of the %.3f before: want about 1/8", hot.AfterRecentShare, ratio, hot.BeforeRecentShare)
	}
	if !strings.HasSuffix(string(hot.AfterPrefix), "#user#mila_rosewood#") {
		t.Errorf("largest piece %q is not a salted celebrity prefix", hot.AfterPrefix)
	}
	change, ok := changeOf(w, KindHotKeyRange)
	if !ok || change.InAfter && change.After >= SeverityWarning {
		t.Errorf("hot-key-range after salt(8): %+v, want it gone or below warning", change)
	}
	if w.ReadCost.PrefixScanFanOut != 8 || !strings.Contains(w.ReadCost.Summary, "8 scans") {
		t.Errorf("read cost %+v, want 8 scans per prefix scan", w.ReadCost)
	}
	// The depth-2 list before names the celebrity; depth 3 after, its pieces.
	if buckets := w.Levels[0]; buckets.Depth != 0 || len(buckets.After) != 5 || buckets.After[0].RowShare > 0.2 {
		t.Errorf("salt buckets level: %+v", buckets)
	}
	level := w.Levels[2]
	if level.Depth != 2 || level.AfterDepth != 3 || level.Before[0].Prefix != hot.Prefix || level.After[0].RowShare > 0.08 {
		t.Errorf("level 2: %+v", level)
	}
}

// TestWhatIfSaltingTheEntityKeepsItHot: hashing only the entity keeps
// each user's rows together, so the celebrity stays one hot range.
func TestWhatIfSaltingTheEntityKeepsItHot(t *testing.T) {
	w := runWhatIf(t, "social-celebrity", "salt(8, prefix=2)")
	hot := w.HotRanges[0]
	if hot.Pieces != 1 || math.Abs(hot.AfterRowShare-hot.BeforeRowShare) > 1e-9 {
		t.Errorf("salt(8, prefix=2) split the celebrity: %+v", hot)
	}
	if change, _ := changeOf(w, KindHotKeyRange); change.Status != ChangeUnchanged {
		t.Errorf("hot-key-range %s, want unchanged", change.Status)
	}
	if w.ReadCost.PrefixScanFanOut != 8 || !strings.Contains(w.ReadCost.Summary, "(such as user#") {
		t.Errorf("read cost %+v: want the example entity prefix that stays one scan", w.ReadCost)
	}
}

func TestWhatIfFixesDesigns(t *testing.T) {
	cases := []struct {
		scenario, transform string
		resolved, unchanged []Kind
	}{
		{"timeseries-timestamp-first", "salt(8)", []Kind{KindSequentialKeys, KindKeyStartsWithTimestamp}, nil},
		{"timeseries-timestamp-first", "promote(1)", []Kind{KindSequentialKeys, KindKeyStartsWithTimestamp}, nil},
		{"users-sequential-ids", "reverse(0)", []Kind{KindSequentialKeys, KindSequentialNumericID}, nil},
		{"users-sequential-ids-colon", "reverse(-1)", []Kind{KindSequentialKeys, KindSequentialNumericID}, nil},
		{"web-domains-forward", "reverse(0)", []Kind{KindDomainNotReversed}, nil},
		// A salt in front of a hash spreads nothing new and restores no order.
		{"hashed-order-keys", "salt(8)", nil, []Kind{KindHashedKey}},
		// Row-level problems do not care about keys.
		{"large-row-and-cell", "salt(4)", nil, []Kind{KindLargeRow, KindLargeCell}},
		{"memusage-single-row", "salt(4)", nil, []Kind{KindFrequentlyUpdatedRow}},
		{"too-many-families", "salt(4)", nil, []Kind{KindTooManyColumnFamilies}},
	}
	for _, c := range cases {
		t.Run(c.scenario+"/"+c.transform, func(t *testing.T) {
			w := runWhatIf(t, c.scenario, c.transform)
			for _, kind := range c.resolved {
				if change, _ := changeOf(w, kind); change.Status != ChangeResolved {
					t.Errorf("%s: %+v, want resolved", kind, change)
				}
			}
			for _, kind := range c.unchanged {
				if change, _ := changeOf(w, kind); change.Status != ChangeUnchanged {
					t.Errorf("%s: %+v, want unchanged", kind, change)
				}
			}
			for _, change := range w.Changes {
				if change.Status == ChangeIntroduced || change.Status == ChangeStronger {
					t.Errorf("%s %s by %s", change.Kind, change.Status, c.transform)
				}
			}
		})
	}
}

// TestWhatIfIdentityKeepsFindings: a transform that changes no key
// rebuilds a snapshot with the same findings, so differences in other
// what-ifs come from the keys, not from the rebuild.
func TestWhatIfIdentityKeepsFindings(t *testing.T) {
	// Every demo table in the slow tier, six in the fast one (TestScenarios
	// diagnoses every one in both).
	for _, sc := range tier.Sample(slices.Concat(demo.Scenarios(), demo.TestTables()), 6) {
		if len(sc.Tablets) > 0 {
			continue // a rebuilt snapshot has no tablets
		}
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			tr := Transform{Kind: TransformPromote, Segment: 0} // changes nothing
			w, err := RunWhatIf(scenarioSnapshot(t, sc.Name), tr)
			if err != nil {
				t.Fatal(err)
			}
			if w.Changed != 0 {
				t.Fatalf("promote(0) changed %d keys", w.Changed)
			}
			for _, change := range w.Changes {
				if change.Status != ChangeUnchanged {
					t.Errorf("%s %s (%s to %s) with keys unchanged", change.Kind, change.Status, change.Before, change.After)
				}
			}
		})
	}
}

func TestWhatIfWithoutSample(t *testing.T) {
	_, err := RunWhatIf(&keyspace.Snapshot{}, Transform{Kind: TransformSalt, Buckets: 8})
	if !errors.Is(err, ErrNoSample) {
		t.Fatalf("error %v, want ErrNoSample", err)
	}
}
