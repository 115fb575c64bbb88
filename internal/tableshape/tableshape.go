// Package tableshape draws the shapes of tables that the sampler's
// accuracy is measured on: which top-level prefixes a table holds, how
// many rows each, in which id form, and how its tablets are cut. A shape
// is a pure function of its seed: [Draw] picks it, [Shape.Rows] yields
// its rows, and [Shape.Truth] gives the exact counts a sample is judged
// against, with no full scan.
//
// A shape has 2 to 200 top-level prefixes ("name#", names of 1 to 30
// bytes) of Zipf-like or even sizes, a few tiny prefixes (at most 1% of a
// tablet's rows) placed between large ones, and keys after the prefix in
// one of the id forms of [Forms]: random hex, decimal, base-36 and UUIDs,
// zero-padded sequential numbers, epoch timestamps and user names. Its
// tablets (for internal/cloudlike) are even or uneven.
package tableshape

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Form is how the keys of a prefix go on after "prefix#".
type Form string

// The id forms.
const (
	// Hex is a random lower-case hex id of 8 to 32 digits.
	Hex Form = "hex"
	// Decimal is a random decimal id of 8 to 12 digits.
	Decimal Form = "decimal"
	// Base36 is a random id of 6 to 12 digits and lower-case letters.
	Base36 Form = "base36"
	// UUID is a random (version 4) UUID.
	UUID Form = "uuid"
	// Sequential is a zero-padded number counting up from a random start.
	Sequential Form = "sequential"
	// Timestamp is a 13-digit epoch millisecond time over a period of
	// days to a year, denser by day than by night.
	Timestamp Form = "timestamp"
	// Name is a user name (first_last and a number) followed by "#" and
	// the user's item number, one to eight items per user.
	Name Form = "name"
)

// Forms returns every id form.
func Forms() []Form {
	return []Form{Hex, Decimal, Base36, UUID, Sequential, Timestamp, Name}
}

// Family is a kind of shape: every prefix in one id form, or mixed.
type Family string

// Mixed gives every prefix an id form of its own, drawn from [Forms].
const Mixed Family = "mixed"

// Families returns the families [Draw] takes: one per form, then Mixed.
func Families() []Family {
	var families []Family
	for _, f := range Forms() {
		families = append(families, Family(f))
	}
	return append(families, Mixed)
}

// Prefix is one top-level prefix of a shape.
type Prefix struct {
	// Name is the prefix's name; its keys start with Name + "#".
	Name string
	Form Form
	// Rows is how many rows it holds, exactly.
	Rows int
	// Tiny marks a prefix of at most 1% of a tablet's rows placed
	// between two large ones.
	Tiny bool
	// ValueBytes is the mean size of its rows' one value; each row's is
	// drawn from [ValueBytes/2, 3·ValueBytes/2].
	ValueBytes int
	// seed seeds its keys and values.
	seed uint64
	// width is the id width of the hex, decimal, base-36 and sequential
	// forms; start is where a sequential one starts; period the days a
	// timestamp one covers.
	width, start, period int
}

// Key returns the top-level prefix as it starts a key: Name + "#".
func (p Prefix) Key() string { return p.Name + "#" }

// Shape is a table's shape: its prefixes in key order and its tablets.
type Shape struct {
	Seed   uint64
	Family Family
	// Prefixes are in key order.
	Prefixes []Prefix
	// TabletSizes are the tablets' relative sizes (in bytes) in key
	// order, for cloudlike.Layout.Sizes.
	TabletSizes []float64
	// Uneven is set when the tablets are of uneven sizes.
	Uneven bool
	// Zipf is set when the prefixes' sizes fall as a power of their rank,
	// unset when they are about even.
	Zipf bool
}

// Draw returns the shape of the given family that seed picks, holding
// about rows rows (at least 2,000).
func Draw(seed uint64, family Family, rows int) Shape {
	rng := rand.New(rand.NewPCG(seed, 0x7368617065)) // "shape"
	rows = max(rows, 2000)
	s := Shape{Seed: seed, Family: family}
	// Tablets: 20 to 50, even or uneven (log-normal sizes, one of them
	// five times the typical).
	tablets := 20 + rng.IntN(31)
	s.Uneven = rng.IntN(2) == 0
	s.TabletSizes = make([]float64, tablets)
	for i := range s.TabletSizes {
		s.TabletSizes[i] = 1
		if s.Uneven {
			s.TabletSizes[i] = math.Exp(0.6 * rng.NormFloat64())
		}
	}
	if s.Uneven {
		s.TabletSizes[rng.IntN(tablets)] = 5
	}
	tabletRows := float64(rows) / float64(tablets)

	// Prefixes: 2 to 200, log-uniform; Zipf-like sizes (exponent 0.7 to
	// 1.3, ranks shuffled over key order) or even (±20%).
	n := int(math.Round(math.Exp(math.Log(2) + rng.Float64()*(math.Log(200)-math.Log(2)))))
	names := prefixNames(rng, n)
	weights := make([]float64, n)
	s.Zipf = rng.IntN(3) > 0
	exponent := 0.7 + 0.6*rng.Float64()
	for i := range weights {
		weights[i] = 0.8 + 0.4*rng.Float64()
		if s.Zipf {
			weights[i] = math.Pow(float64(i+1), -exponent)
		}
	}
	rng.Shuffle(n, func(i, j int) { weights[i], weights[j] = weights[j], weights[i] })
	var total float64
	for _, w := range weights {
		total += w
	}
	for i, name := range names {
		p := Prefix{Name: name, Rows: max(1, int(math.Round(float64(rows)*weights[i]/total)))}
		s.Prefixes = append(s.Prefixes, p)
	}
	// Tiny prefixes: one to three, each between two prefixes of at least
	// a tablet's rows, of 1 row to 1% of a tablet.
	var large []int
	for i := 0; i+1 < len(s.Prefixes); i++ {
		if float64(s.Prefixes[i].Rows) >= tabletRows && float64(s.Prefixes[i+1].Rows) >= tabletRows {
			large = append(large, i)
		}
	}
	for range 1 + rng.IntN(3) {
		if len(large) == 0 {
			break
		}
		k := rng.IntN(len(large))
		i := large[k]
		large = slices.Delete(large, k, k+1)
		name, ok := nameBetween(rng, s.Prefixes[i].Name, s.Prefixes[i+1].Name, s.Prefixes)
		if !ok {
			continue
		}
		s.Prefixes = append(s.Prefixes, Prefix{Name: name, Tiny: true, Rows: 1 + rng.IntN(max(1, int(tabletRows/100)))})
	}
	slices.SortFunc(s.Prefixes, func(a, b Prefix) int { return cmp.Compare(a.Key(), b.Key()) })
	for i := range s.Prefixes {
		p := &s.Prefixes[i]
		p.Form = Form(family)
		if family == Mixed {
			p.Form = Forms()[rng.IntN(len(Forms()))]
		}
		p.ValueBytes = 20 + rng.IntN(380)
		p.seed = rng.Uint64()
		switch p.Form {
		case Hex:
			p.width = 8 + rng.IntN(25)
		case Decimal:
			p.width = 8 + rng.IntN(5)
		case Base36:
			p.width = 6 + rng.IntN(7)
		case Sequential:
			p.width = max(7+rng.IntN(6), len(fmt.Sprint(p.Rows))+1)
			if rng.IntN(2) == 0 {
				p.start = rng.IntN(p.Rows * 20)
			}
		case Timestamp:
			p.period = 1 + rng.IntN(365)
		}
	}
	return s
}

// Shape sizes that the sampler's accuracy is measured at: ForSeed draws
// tables of MinRows to MaxRows rows, the sizes of issue 26's measurements.
const (
	MinRows = 600_000
	MaxRows = 1_000_000
)

// ForSeed returns the shape of the accuracy tests and of benchscan shapes
// for seed: of the family seed picks (the families in turn, seed after
// seed), holding minRows to maxRows rows as seed picks them, so that one
// seed names the same table in both.
func ForSeed(seed uint64, minRows, maxRows int) Shape {
	families := Families()
	rng := rand.New(rand.NewPCG(seed, 1))
	rows := minRows + rng.IntN(max(maxRows-minRows, 0)+1)
	return Draw(seed, families[seed%uint64(len(families))], rows)
}

// HasNames reports whether a prefix of the shape, other than a tiny one,
// holds names (see [Name]).
func (s Shape) HasNames() bool {
	return slices.ContainsFunc(s.Prefixes, func(p Prefix) bool { return p.Form == Name && !p.Tiny })
}

// String says what the shape is, in one line.
func (s Shape) String() string {
	sizes, tablets := "even", "even"
	if s.Zipf {
		sizes = "Zipf"
	}
	if s.Uneven {
		tablets = "uneven"
	}
	tiny := 0
	for _, p := range s.Prefixes {
		if p.Tiny {
			tiny++
		}
	}
	return fmt.Sprintf("%s seed %d: %d rows, %d prefixes (%s sizes, %d tiny), %d %s tablets",
		s.Family, s.Seed, s.TotalRows(), len(s.Prefixes), sizes, tiny, len(s.TabletSizes), tablets)
}

// TotalRows returns the rows of the whole table.
func (s Shape) TotalRows() int {
	n := 0
	for _, p := range s.Prefixes {
		n += p.Rows
	}
	return n
}

// Row is one row of a shape: its key and the size of its one value.
type Row struct {
	Key        string
	ValueBytes int
}

// Rows yields the shape's rows, prefix by prefix in key order, each
// prefix's rows in key order.
func (s Shape) Rows() iter.Seq[Row] {
	return func(yield func(Row) bool) {
		for _, p := range s.Prefixes {
			for row := range p.rows() {
				if !yield(row) {
					return
				}
			}
		}
	}
}

// Truth is what a prefix holds, exactly.
type Truth struct {
	// Prefix is the top-level prefix as it starts a key ("name#").
	Prefix string
	Rows   int
	// ValueBytes sums the rows' values.
	ValueBytes int64
}

// Truth returns each prefix's exact rows and value bytes, in key order.
func (s Shape) Truth() []Truth {
	truths := make([]Truth, len(s.Prefixes))
	for i, p := range s.Prefixes {
		truths[i] = Truth{Prefix: p.Key(), Rows: p.Rows}
		for row := range p.rows() {
			truths[i].ValueBytes += int64(row.ValueBytes)
		}
	}
	return truths
}

// rows yields the prefix's rows in key order.
func (p Prefix) rows() iter.Seq[Row] {
	return func(yield func(Row) bool) {
		rng := rand.New(rand.NewPCG(p.seed, 0x726f7773)) // "rows"
		keys := p.ids(rng)
		values := rand.New(rand.NewPCG(p.seed, 0x76616c)) // "val"
		for _, id := range keys {
			size := p.ValueBytes/2 + values.IntN(p.ValueBytes+1)
			if !yield(Row{Key: p.Key() + id, ValueBytes: size}) {
				return
			}
		}
	}
}

// ids returns the prefix's Rows distinct ids, sorted.
func (p Prefix) ids(rng *rand.Rand) []string {
	if p.Form == Sequential {
		ids := make([]string, p.Rows)
		for i := range ids {
			ids[i] = fmt.Sprintf("%0*d", p.width, p.start+i)
		}
		return ids
	}
	if p.Form == Name {
		return p.names(rng)
	}
	seen := make(map[string]bool, p.Rows)
	ids := make([]string, 0, p.Rows)
	for len(ids) < p.Rows {
		id := p.randomID(rng)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

const (
	hexDigits    = "0123456789abcdef"
	base36Digits = "0123456789abcdefghijklmnopqrstuvwxyz"
)

// randomID draws one id of the random forms.
func (p Prefix) randomID(rng *rand.Rand) string {
	draw := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	switch p.Form {
	case Hex:
		return draw(hexDigits, p.width)
	case Decimal:
		return draw(hexDigits[:10], p.width)
	case Base36:
		return draw(base36Digits, p.width)
	case UUID:
		variant := string("89ab"[rng.IntN(4)])
		return draw(hexDigits, 8) + "-" + draw(hexDigits, 4) + "-4" + draw(hexDigits, 3) + "-" + variant + draw(hexDigits, 3) + "-" + draw(hexDigits, 12)
	case Timestamp:
		// Epoch milliseconds from 2024-01-01 over the period, accepted
		// with a daily cycle: four times as dense at the day's peak as at
		// its trough.
		const day = 86_400_000
		const from = 1_704_067_200_000
		for {
			t := rng.Int64N(int64(p.period) * day)
			phase := float64(t%day) / day
			if rng.Float64()*1.6 < 1+0.6*math.Sin(2*math.Pi*phase) {
				return fmt.Sprintf("%013d", from+t)
			}
		}
	}
	panic("tableshape: no random ids of form " + string(p.Form))
}

var (
	firstNames = []string{"aaron", "alice", "amara", "bjorn", "bob", "carmen", "chloe", "dmitri", "emma", "felix", "hana", "ivan", "jin", "kofi", "lena", "mila", "noah", "olga", "priya", "quentin", "ravi", "sofia", "tariq", "uma", "valentina", "william", "xia", "yusuf", "zoe"}
	lastNames  = []string{"andersen", "bianchi", "haddad", "ito", "khan", "kowalski", "lopez", "moreau", "nguyen", "okafor", "petrov", "reyes", "rosewood", "sato", "schmidt", "silva", "smith", "tanaka", "walker", "zhang"}
)

// names returns Rows ids "first_last<n>#<item>": users of one to eight
// items each, sorted.
func (p Prefix) names(rng *rand.Rand) []string {
	seen := map[string]bool{}
	ids := make([]string, 0, p.Rows)
	for len(ids) < p.Rows {
		user := fmt.Sprintf("%s_%s%d", firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))], rng.IntN(10_000))
		if seen[user] {
			continue
		}
		seen[user] = true
		for item := range min(1+rng.IntN(8), p.Rows-len(ids)) {
			ids = append(ids, fmt.Sprintf("%s#%03d", user, item))
		}
	}
	slices.Sort(ids)
	return ids
}

// prefixNames returns n distinct prefix names of 1 to 30 bytes (a
// lower-case letter, then letters and digits), sorted.
func prefixNames(rng *rand.Rand, n int) []string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	seen := map[string]bool{}
	var names []string
	for len(names) < n {
		length := 1 + int(30*math.Pow(rng.Float64(), 2)) // mostly short
		b := make([]byte, min(length, 30))
		b[0] = alphabet[rng.IntN(26)]
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if name := string(b); !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// nameBetween returns a prefix name whose keys sort between those of
// prefixes a and b (a+"#" < name+"#" < b+"#") and that no prefix of taken
// has, of at most 30 bytes.
func nameBetween(rng *rand.Rand, a, b string, taken []Prefix) (string, bool) {
	for range 100 {
		name := a + string("abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)])
		if len(name) > 30 {
			name = a[:29] + string("0123456789"[rng.IntN(10)])
		}
		if rng.IntN(2) == 0 && len(name) < 30 {
			name += string("abcdefghijklmnopqrstuvwxyz"[rng.IntN(26)])
		}
		if !(a+"#" < name+"#" && name+"#" < b+"#") {
			continue
		}
		if !slices.ContainsFunc(taken, func(p Prefix) bool { return p.Name == name }) && !strings.Contains(name, "#") {
			return name, true
		}
	}
	return "", false
}
