package tableshape

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/testkit/tier"
)

// idPattern is what each form's ids look like after "prefix#".
var idPattern = map[Form]*regexp.Regexp{
	Hex:        regexp.MustCompile(`^[0-9a-f]{8,32}$`),
	Decimal:    regexp.MustCompile(`^[0-9]{8,12}$`),
	Base36:     regexp.MustCompile(`^[0-9a-z]{6,12}$`),
	UUID:       regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
	Sequential: regexp.MustCompile(`^[0-9]{7,}$`),
	Timestamp:  regexp.MustCompile(`^17[0-9]{11}$`),
	Name:       regexp.MustCompile(`^[a-z]+_[a-z]+[0-9]+#[0-9]{3}$`),
}

// Every family's shapes: the same seed gives the same rows; keys are
// distinct, in order, in their prefix's form; the truth counts them
// exactly; prefix names are 1 to 30 bytes; tiny prefixes lie between
// large ones.
func TestShapesAreExactAndReproducible(t *testing.T) {
	for _, family := range Families() {
		for _, seed := range tier.Sample([]uint64{0, 1, 2, 3, 4, 5}, 3) {
			s := Draw(seed, family, 20_000)
			again := Draw(seed, family, 20_000)
			if s.String() != again.String() || len(s.Prefixes) != len(again.Prefixes) {
				t.Fatalf("%s: drawn twice, %s and %s", s, s, again)
			}
			if n := len(s.Prefixes) - tinyCount(s); n < 2 || n > 200 {
				t.Errorf("%s: %d prefixes besides the tiny ones", s, n)
			}
			if n := len(s.TabletSizes); n < 20 || n > 50 {
				t.Errorf("%s: %d tablets", s, n)
			}
			truth := s.Truth()
			counts := map[string]int{}
			var values int64
			prev := ""
			var first []Row
			forms := map[string]Form{}
			for _, p := range s.Prefixes {
				forms[p.Name] = p.Form
			}
			for row := range s.Rows() {
				if row.Key <= prev {
					t.Fatalf("%s: key %q after %q", s, row.Key, prev)
				}
				prev = row.Key
				name, id, _ := strings.Cut(row.Key, "#")
				if len(name) < 1 || len(name) > 30 {
					t.Errorf("%s: prefix name %q of %d bytes", s, name, len(name))
				}
				if form := forms[name]; !idPattern[form].MatchString(id) {
					t.Fatalf("%s: %s id %q", s, form, id)
				}
				counts[name+"#"]++
				values += int64(row.ValueBytes)
				if len(first) < 50 {
					first = append(first, row)
				}
			}
			var want int64
			for _, tr := range truth {
				if counts[tr.Prefix] != tr.Rows {
					t.Errorf("%s: %s holds %d rows, truth says %d", s, tr.Prefix, counts[tr.Prefix], tr.Rows)
				}
				want += tr.ValueBytes
			}
			if values != want {
				t.Errorf("%s: %d value bytes, truth says %d", s, values, want)
			}
			var firstAgain []Row
			for row := range again.Rows() {
				if firstAgain = append(firstAgain, row); len(firstAgain) == len(first) {
					break
				}
			}
			if !slices.Equal(first, firstAgain) {
				t.Errorf("%s: the same seed drew other rows", s)
			}
			tabletRows := float64(s.TotalRows()) / float64(len(s.TabletSizes))
			for i, p := range s.Prefixes {
				if !p.Tiny {
					continue
				}
				if float64(p.Rows) > max(1, tabletRows/100) || i == 0 || i == len(s.Prefixes)-1 ||
					float64(s.Prefixes[i-1].Rows) < tabletRows || float64(s.Prefixes[i+1].Rows) < tabletRows {
					t.Errorf("%s: tiny prefix %q of %d rows between %d and %d (a tablet holds %.0f)", s, p.Name, p.Rows,
						s.Prefixes[max(i-1, 0)].Rows, s.Prefixes[min(i+1, len(s.Prefixes)-1)].Rows, tabletRows)
				}
			}
		}
	}
}

func tinyCount(s Shape) int {
	n := 0
	for _, p := range s.Prefixes {
		if p.Tiny {
			n++
		}
	}
	return n
}

// Over many seeds the shapes cover what they promise: both size kinds,
// both tablet kinds, tiny prefixes, and from 2 to near 200 prefixes.
func TestShapesCoverTheFamily(t *testing.T) {
	var zipf, even, uneven, tiny, few, many int
	for seed := range uint64(60) {
		s := Draw(seed, Mixed, 100_000)
		switch {
		case s.Zipf:
			zipf++
		default:
			even++
		}
		if s.Uneven {
			uneven++
		}
		if tinyCount(s) > 0 {
			tiny++
		}
		if n := len(s.Prefixes); n <= 5 {
			few++
		} else if n >= 100 {
			many++
		}
	}
	if zipf == 0 || even == 0 || uneven == 0 || uneven == 60 || tiny < 10 || few == 0 || many == 0 {
		t.Errorf("60 shapes: %d Zipf, %d even, %d uneven, %d with tiny prefixes, %d of ≤5 prefixes, %d of ≥100", zipf, even, uneven, tiny, few, many)
	}
}

// A seed names one shape wherever it is drawn: the families in turn, the
// rows within the bounds.
func TestForSeedPicksFamilyAndRows(t *testing.T) {
	families := Families()
	for seed := range uint64(len(families)) {
		s := ForSeed(seed, 2000, 4000)
		if s.Family != families[seed] {
			t.Errorf("seed %d: family %s, want %s", seed, s.Family, families[seed])
		}
		if n := s.TotalRows(); n < 1900 || n > 4300 {
			t.Errorf("seed %d: %d rows, want 2,000 to 4,000 (give or take rounding and tiny prefixes)", seed, n)
		}
		if again := ForSeed(seed, 2000, 4000); again.String() != s.String() {
			t.Errorf("seed %d drawn twice: %s and %s", seed, s, again)
		}
		if s.Family == Family(Name) && !s.HasNames() || s.Family == Family(Hex) && s.HasNames() {
			t.Errorf("%s: HasNames %v", s, s.HasNames())
		}
	}
}
