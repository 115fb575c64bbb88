package sampler

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// A keyMap places the keys of one top-level prefix on a line, so that a
// tablet's (or a piece's) read positions can be spread between its
// bounding keys without reading it: the line is the order of keys, each
// key's place its share of the keys before it, as far as the keys known
// of the prefix (the tablet boundaries inside it, the pilot's rows, the
// first and last rows of its pieces and the keys its probes read) tell.
//
// It is a trie of the known keys, read at positions counted from the end
// of the prefix, so that a prefix name of 1 byte and one of 30 line up,
// and one prefix's letters never open holes in another's digits. At each
// node the room is shared among the next bytes:
//
//   - where the known keys branch freely (the digits of ids, hashes),
//     every byte of the prefix's whole classes gets an equal share: the
//     digits once any digit is seen, the hex letters a–f (or A–F) when
//     every letter seen is one of them beside digits (a hex id of few
//     known keys still gets its f), else the whole alphabet of that case
//     (base-36, base-62, names); a position where the known keys hold
//     only other bytes (the dashes of a UUID, a delimiter) gives them
//     the room;
//   - where they do not (the letters of names, the leading digits of a
//     counter or a timestamp, the version digit of a UUID), each next
//     byte gets a share by the known keys that take it, and every other
//     byte of the classes a little (see newByteWeight), so that the line
//     runs through the names that exist, not through every string of
//     letters. A node of two known keys or more is structured when keys
//     spread evenly over the classes would take as few distinct bytes
//     less than structuredLevel of the time; a node of one key is as its
//     parent;
//   - every byte outside the classes keeps unseenWeight of a share, so
//     that every key has a place and the map keeps key order.
//
// Keys are read to the map's precision, not to a fixed depth: a position
// whose share of the line falls below float64's precision adds nothing.
type keyMap struct {
	// prefix is the top-level prefix the map is of; positions count from
	// its end.
	prefix string
	known  map[string]bool
	// witnesses are the known keys learned apart from one another (see
	// [keyMap.learnRun]), which alone judge whether the keys are names.
	witnesses map[string]bool
	// bounds are the tablet boundaries inside the prefix, after it,
	// sorted: whether the keys are names is judged over the sides of the
	// nodes they cut (see [keyMap.sides]).
	bounds []string
	// suffixes are the known keys after the prefix, sorted (by judge).
	suffixes []string
	// runOf numbers the run each known key was first learned in (see
	// [keyMap.learnRun]), runs counting the runs learned; runStarts[j]
	// counts the suffixes before j that begin a run in suffixes' order
	// (built by judge), so that in a map of names a run counts once at
	// each next byte of a node it reaches (see [branches]). A run that
	// meets keys learned before it, or that other runs' keys interleave,
	// counts once for each stretch between them: more than once, never
	// less.
	runOf     map[string]int
	runs      int
	runStarts []int
	// seen[i] holds the bytes known keys take i bytes after the prefix,
	// sorted; ends[i] says whether a known key ends there.
	seen [][]byte
	ends []bool
	// follows holds, for each kind of byte (see [byteKind]), the bytes
	// known keys take after one.
	follows map[int][]byte
	// heavy[i][kind] is what position i may take after a byte of kind,
	// lowerTop and upperTop the last letters of each case the keys may
	// take; built by judge.
	heavy              []map[int][]byte
	lowerTop, upperTop byte
	// wordy says whether the keys hold letters past the hex ones.
	wordy bool
	// segments[i] holds every known key's part after its i-th byte that
	// is not a letter or digit, up to and with its next one, sorted (a
	// list: repeats count), of one key of each run in a map of names;
	// built by judge.
	segments [][]string
	// pooled[i][kind] says whether the nodes at depth i after a byte of
	// kind are structured, judged together; built by judge.
	pooled []map[int]bool
	byKind map[int]bool
	// namesBy is byKind judged over the sides of the nodes that tablet
	// boundaries cut (see [keyMap.sides]); it alone decides whether the
	// keys are names. The lines of names keep pooled and byKind, judged
	// over whole nodes: a variant that judged them by sides too placed
	// the names differently, and moved shapes of names by several points
	// either way. The kin map (see [keyMaps.judgeKin]) knows no
	// boundaries: its keys are the names after many prefixes.
	namesBy map[int]bool
	dirty   bool
	// kin, when set, is the kin map (see [keyMaps.judgeKin]), whose line
	// this map, of names but of too few known keys of its own, takes.
	kin *keyMap
	// marks are keys after the prefix, sorted, known to begin a first
	// segment of the prefix's names: read to find that the segment is
	// there (see [scanner.markNames]), not drawn in proportion to rows,
	// so the trie does not count them (see [keyMap.withMarks]).
	marks []string
	// markPseudo holds each mark's pseudo-weight (see
	// [keyMap.judgeMarks]); built by judge.
	markPseudo []float64
	// marksCut says that a read of the first segments stopped before the
	// prefix's end (see [scanner.markNames]): the marks then do not
	// name every first segment.
	marksCut bool
}

// unseenWeight is the share of a byte's room that a byte outside the
// prefix's classes keeps.
const unseenWeight = 1e-5

// At a structured node, the bytes no known key takes share
// (newByteWeight + newByteDiscount·(k−1)) / (n + newByteWeight) of its
// room, n known keys taking k distinct bytes (a Pitman–Yor estimate of
// the chance that the next key takes a new byte), and at a node of one
// known key under a structured one, inheritedSmoothing.
const (
	newByteWeight      = 0.2
	newByteDiscount    = 0.5
	inheritedSmoothing = 0.03
)

// newKeyMap returns an empty map of the keys after prefix.
func newKeyMap(prefix string) *keyMap {
	return &keyMap{prefix: prefix, known: map[string]bool{}, witnesses: map[string]bool{}, runOf: map[string]int{}}
}

// learn adds known keys of the map's prefix (others are ignored): keys
// spread over the prefix, which show how its keys branch.
func (m *keyMap) learn(keys ...string) {
	for _, key := range keys {
		m.witness(key)
		m.learnRun(key)
	}
}

// witness marks a known key as learned apart from the others, one that
// judges how keys branch (see [keyMap.judge]).
func (m *keyMap) witness(key string) {
	if strings.HasPrefix(key, m.prefix) {
		m.witnesses[key] = true
	}
}

// mark adds a key of the map's prefix known to begin a first segment of
// its names (see [keyMap.marks]); others are ignored.
func (m *keyMap) mark(key string) {
	if m.insertRest(&m.marks, key) {
		m.learnBytes(key)
	}
}

// insertRest inserts key's part after the map's prefix into sorted, a
// sorted list of such parts, and reports whether it was not there; a key
// of another prefix is ignored.
func (m *keyMap) insertRest(sorted *[]string, key string) bool {
	if !strings.HasPrefix(key, m.prefix) {
		return false
	}
	rest := key[len(m.prefix):]
	j, found := slices.BinarySearch(*sorted, rest)
	if !found {
		*sorted = slices.Insert(*sorted, j, rest)
	}
	return !found
}

// markFloor is the least weight, as a share of the mean weight of the
// marked first segments, that a marked first segment takes on the line
// (see [keyMap.withMarks]), and enumeratedSmoothing the share of its
// node's room the bytes no mark takes keep where the marks name every
// first segment.
const (
	markFloor           = 0.5
	enumeratedSmoothing = 0.001
)

// judgeMarks sets each mark's pseudo-weight (see [keyMap.withMarks]):
// what its first segment's known keys (its runs, in a map of names) fall
// short of markFloor times the mean over the marked first segments (at
// least 1), on the first mark of each first segment, 0 on the others.
func (m *keyMap) judgeMarks() {
	m.markPseudo = m.markPseudo[:0]
	if len(m.marks) == 0 {
		return
	}
	counts := make([]float64, len(m.marks))
	var sum float64
	segments := 0
	for j, mark := range m.marks {
		first := firstSegment(mark)
		if j > 0 && firstSegment(m.marks[j-1]) == first {
			counts[j] = -1 // a segment already counted
			continue
		}
		_, _, ends, n := branches(m.suffixes, m.runStarts, first)
		counts[j] = float64(n) + ends
		sum += counts[j]
		segments++
	}
	floor := markFloor * max(sum/float64(segments), 1)
	for _, c := range counts {
		pseudo := 0.0
		if c >= 0 {
			pseudo = max(floor-c, 0)
		}
		m.markPseudo = append(m.markPseudo, pseudo)
	}
}

// withMarks returns a node's next bytes and their cumulative weights
// (see [branches]), with n, once the marks have their say, and whether
// the node is enumerated. Inside a key's first segment, each next byte
// weighs its known keys plus the pseudo-weights of the marks below it
// (see [keyMap.judgeMarks]), so that a marked first segment weighs at
// least markFloor of a mean one, at every node above it. A first name
// the known keys miss gets next to no room on a line of names: the bytes
// no known key takes share a small part of their node, and below them
// the room spreads over every string of letters, so that all its rows
// lie on a sliver of the line that no span lands on, and the spans,
// which teach the maps, never find it (at 10% of seed 64110822, 3,153
// rows of amara_ on 0.026% of a piece's line, the kin knowing 1 key of
// it; its 368 spans, read in full, would have estimated the piece with a
// standard deviation of 38%, and 4.2% on the true line). Where the marks
// name every first segment (no read of them stopped short, see
// [keyMap.marksCut]), a node they reach is enumerated: the bytes no mark
// takes are not first segments to be met later, and keep only
// enumeratedSmoothing of its room (a table whose kin knew 0 to 2 keys of
// each first name gave the bytes between the marked names, as unseen
// bytes of nodes of several keys, 0.92 of a piece's line: its spans read
// 87 rows of 25,202 at 2.1%, the 1% sample of seed 64110911).
func (m *keyMap) withMarks(node string, bytes []byte, cum []float64, n int) ([]byte, []float64, int, bool) {
	if len(m.marks) == 0 || len(m.markPseudo) != len(m.marks) || !allAlnum(node) {
		return bytes, cum, n, false
	}
	lo, _ := slices.BinarySearch(m.marks, node)
	hi := len(m.marks)
	if next := keyspace.PrefixEnd(node); next != "" && node != "" {
		hi, _ = slices.BinarySearch(m.marks, next)
	}
	var marked []byte
	var pseudo []float64
	for j := lo; j < hi; j++ {
		if len(m.marks[j]) <= len(node) {
			continue
		}
		c := m.marks[j][len(node)]
		if len(marked) == 0 || marked[len(marked)-1] != c {
			marked = append(marked, c)
			pseudo = append(pseudo, 0)
		}
		pseudo[len(pseudo)-1] += m.markPseudo[j]
	}
	if len(marked) == 0 {
		return bytes, cum, n, false
	}
	var outBytes []byte
	outCum := []float64{0}
	add := func(c byte, w float64) {
		outBytes = append(outBytes, c)
		outCum = append(outCum, outCum[len(outCum)-1]+w)
	}
	i, j := 0, 0
	for i < len(bytes) || j < len(marked) {
		switch {
		case j == len(marked) || i < len(bytes) && bytes[i] < marked[j]:
			add(bytes[i], cum[i+1]-cum[i])
			i++
		case i == len(bytes) || marked[j] < bytes[i]:
			add(marked[j], max(pseudo[j], unseenWeight))
			j++
		default:
			add(bytes[i], cum[i+1]-cum[i]+pseudo[j])
			i, j = i+1, j+1
		}
	}
	return outBytes, outCum, max(n, int(math.Round(outCum[len(outCum)-1]))), !m.marksCut
}

// bound adds a tablet boundary of the map's prefix (others are ignored).
func (m *keyMap) bound(key string) {
	if m.insertRest(&m.bounds, key) {
		m.dirty = true
	}
}

// nodeSide is one side of a node of the trie that tablet boundaries cut
// (the whole node when none does): its witnesses that go on past the
// node, the distinct bytes they take next, and how many bytes of the
// node's class lie on that side.
type nodeSide struct{ n, distinct, kinds float64 }

// sides returns the sides of the node of keys (sorted witnesses after the
// prefix that share their first d bytes) that the tablet boundaries
// inside it cut, each with the bytes of class, the bytes the node's next
// position may take, that lie on it. A tablet's reads draw witnesses
// evenly over the tablet, not over the prefix, so a boundary inside a
// node splits its witnesses into parts drawn apart, each spread over its
// side's bytes only: a tablet holding the last 0.4% of a prefix of random
// hex ids, read in full at 10%, gave 35 of its 60 witnesses, all after
// "fed0", and judged over the whole class, the bytes after "f" and "fe"
// looked as few as names' (the generated shape seed 64110815 of the
// docs/MEASUREMENTS.md's "A tablet boundary no longer makes ids look like names",
// mixed: the prefix judged names, and its piece of the tablet before came
// out 18% under). A side keeps the byte its boundary takes next, which
// keys on both sides may take. A boundary, a witness too (the maps learn
// it), is the first key of the tablet above it, but where the tablets
// were split, not one of that tablet's reads: it counts on the side
// below it, with the keys before it, with which it makes the pairs of
// witnesses that tell names (in a variant left out, which judged the
// lines of names by sides too, a shape of names at 1%, seed 64110822,
// came out 11.06 pp off with the boundary counted above, 2.06 below, and
// 1.72 before the change). The sides are returned in buf's storage,
// overwriting it.
func (m *keyMap) sides(buf []nodeSide, keys []string, d int, class []byte) []nodeSide {
	node := keys[0][:d]
	j, _ := slices.BinarySearch(m.bounds, node)
	var cuts []string // the boundaries inside the node, past its first key
	for ; j < len(m.bounds) && strings.HasPrefix(m.bounds[j], node); j++ {
		if len(m.bounds[j]) > d {
			cuts = append(cuts, m.bounds[j])
		}
	}
	out := slices.Grow(buf[:0], len(cuts)+1)[:len(cuts)+1]
	clear(out)
	for i := range out {
		lo, hi := byte(0), byte(0xff)
		if i > 0 {
			lo = cuts[i-1][d]
		}
		if i < len(cuts) {
			hi = cuts[i][d]
		}
		for _, c := range class {
			if c >= lo && c <= hi {
				out[i].kinds++
			}
		}
		out[i].kinds = max(out[i].kinds, 1)
	}
	prev, side := -1, 0
	for _, key := range keys {
		if len(key) <= d {
			continue
		}
		at, _ := slices.BinarySearch(cuts, key) // the boundaries below the key
		if at != side {
			side, prev = at, -1
		}
		out[side].n++
		if int(key[d]) != prev {
			out[side].distinct++
			prev = int(key[d])
		}
	}
	return out
}

// learnRun adds known keys of the map's prefix that were read together
// (consecutive rows of a later round's probe of names, or of a span of
// names: see [keyMaps.learnRun]), as one run: their trie counts
// them, so that a line of names runs where they are, but they do not
// witness how keys branch (consecutive keys share long beginnings, which
// would make any key look like names, and a map judged names learns more
// of them). In a map judged names a run counts once at each node it
// reaches (see [branches]): counted key by key, the rows of one read, one
// user's, gave that user the room of as many users. A prefix of names of
// 111,920 rows inside one tablet, whose map knew 6 keys, five of them one
// run, held half its rows in the first 28% of its line; its spans read
// 0.19% of its rows at 0.85% of its line, and the split left it 32% of
// its bytes (issue 26's generated shape seed 64110822 at 0.1%). Counted
// once, half its rows lie in the first 44%, and it comes out 16% over.
func (m *keyMap) learnRun(keys ...string) {
	m.runs++
	for _, key := range keys {
		if !strings.HasPrefix(key, m.prefix) || m.known[key] {
			continue
		}
		m.known[key] = true
		m.runOf[key] = m.runs
		m.learnBytes(key)
		m.dirty = true
	}
}

// learnBytes adds the bytes of keys of the map's prefix to what its
// positions may take, and nothing to its trie: keys read together (the
// pilot's run of consecutive rows, a probe's) show which bytes occur,
// not how keys branch (150 consecutive rows of "acct#00…" would make
// every id look as if it began with 0).
func (m *keyMap) learnBytes(keys ...string) {
	for _, key := range keys {
		if !strings.HasPrefix(key, m.prefix) {
			continue
		}
		m.dirty = true
		rest := key[len(m.prefix):]
		for len(m.ends) <= len(rest) {
			m.ends = append(m.ends, false)
			m.seen = append(m.seen, nil)
		}
		m.ends[len(rest)] = true
		if m.follows == nil {
			m.follows = map[int][]byte{}
		}
		for i := 0; i < len(rest); i++ {
			m.seen[i] = insertByte(m.seen[i], rest[i])
			kind := kindBefore(rest[:i])
			m.follows[kind] = insertByte(m.follows[kind], rest[i])
		}
	}
}

// nodeNext returns the distinct bytes the keys of a node of two keys or
// more (sorted, sharing their first d bytes) take next (see
// [childBytes]), or nil for a node of fewer, which judges nothing.
func nodeNext(keys []string, d int) []byte {
	if len(keys) < 2 || len(keys[0]) < d {
		return nil
	}
	return childBytes(keys, d)
}

func insertByte(set []byte, c byte) []byte {
	if j, found := slices.BinarySearch(set, c); !found {
		return slices.Insert(set, j, c)
	}
	return set
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isLower(c) || isUpper(c) }

// allAlnum reports whether every byte of s is an ASCII letter or digit.
func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return true
}

// judge builds what each position may take from the keys learned; call
// it after the last learn and before the map is used (by several readers
// at once).
func (m *keyMap) judge() {
	if !m.dirty && m.heavy != nil {
		return
	}
	m.dirty = false
	m.suffixes = m.suffixes[:0]
	for key := range m.known {
		m.suffixes = append(m.suffixes, key[len(m.prefix):])
	}
	slices.Sort(m.suffixes)
	m.letters()
	m.heavy = make([]map[int][]byte, len(m.seen))
	for d, seen := range m.seen {
		m.heavy[d] = map[int][]byte{}
		for kind := range m.follows {
			m.heavy[d][kind] = m.heavyFor(seen, kind)
		}
	}
	// Each depth and kind of byte before judged over all its nodes of two
	// known keys or more: the few keys of each node of a names prefix
	// tell little, all of them together a lot.
	type evidence struct{ distinct, mean, variance float64 }
	witnesses := make([]string, 0, len(m.witnesses))
	for key := range m.witnesses {
		witnesses = append(witnesses, key[len(m.prefix):])
	}
	slices.Sort(witnesses)
	add := func(to map[int]*evidence, kind int, distinct, kinds, n float64) {
		mean, variance := occupancy(kinds, n)
		e := to[kind]
		if e == nil {
			e = &evidence{}
			to[kind] = e
		}
		e.distinct += distinct
		e.mean += mean
		e.variance += variance
	}
	pooled := make([]map[int]*evidence, len(m.seen))
	bySides := map[int]*evidence{} // the nodes' sides (see [keyMap.sides]), every depth
	var sides []nodeSide
	for d := range m.seen {
		pooled[d] = map[int]*evidence{}
		for lo := 0; lo < len(witnesses); {
			hi := lo + 1
			for hi < len(witnesses) && len(witnesses[lo]) >= d && len(witnesses[hi]) >= d && witnesses[hi][:d] == witnesses[lo][:d] {
				hi++
			}
			if next := nodeNext(witnesses[lo:hi], d); next != nil && !allDigits(next) {
				kind := kindBefore(witnesses[lo][:d])
				class := m.heavy[d][kind]
				sides = m.sides(sides, witnesses[lo:hi], d, class)
				var n float64
				for _, side := range sides {
					n += side.n
					if side.n >= 2 {
						add(bySides, kind, side.distinct, side.kinds, side.n)
					}
				}
				if n >= 2 {
					add(pooled[d], kind, float64(len(next)), float64(max(len(class), 1)), n)
				}
			}
			lo = hi
		}
	}
	// A depth whose nodes tell nothing (none has two keys) is judged by
	// all the nodes after its kind of byte, at any depth.
	byKind := map[int]*evidence{}
	m.pooled = make([]map[int]bool, len(m.seen))
	for d := range m.seen {
		m.pooled[d] = map[int]bool{}
		for kind, e := range pooled[d] {
			m.pooled[d][kind] = e.distinct < e.mean-pooledZ*math.Sqrt(e.variance)
			all := byKind[kind]
			if all == nil {
				all = &evidence{}
				byKind[kind] = all
			}
			all.distinct += e.distinct
			all.mean += e.mean
			all.variance += e.variance
		}
	}
	m.byKind = map[int]bool{}
	for kind, e := range byKind {
		m.byKind[kind] = e.distinct < e.mean-kindZ*math.Sqrt(e.variance)
	}
	m.namesBy = map[int]bool{}
	for kind, e := range bySides {
		m.namesBy[kind] = e.distinct < e.mean-kindZ*math.Sqrt(e.variance)
	}
	// Keys read together count once per run only in a map of names,
	// whose runs share their users (see [branches]).
	runsCount := m.namesLike()
	m.runStarts = append(m.runStarts[:0], 0)
	for j, suffix := range m.suffixes {
		start := 0
		if j == 0 || !runsCount || m.runOf[m.prefix+suffix] != m.runOf[m.prefix+m.suffixes[j-1]] {
			start = 1
		}
		m.runStarts = append(m.runStarts, m.runStarts[j]+start)
	}
	m.segments = m.segments[:0]
	for j, key := range m.suffixes {
		if m.runStarts[j+1] == m.runStarts[j] {
			continue // one key of each run of names: the others share its user
		}
		index, from := 0, 0
		for i := 0; i <= len(key); i++ {
			if i < len(key) && isAlnum(key[i]) {
				continue
			}
			for len(m.segments) <= index {
				m.segments = append(m.segments, nil)
			}
			m.segments[index] = append(m.segments[index], key[from:min(i+1, len(key))])
			index, from = index+1, i+1
		}
	}
	for _, segs := range m.segments {
		slices.Sort(segs)
	}
	m.judgeMarks()
}

// A depth (or every depth, after one kind of byte) is structured when its
// nodes' keys take fewer distinct bytes than keys spread evenly would,
// by pooledZ (kindZ) standard deviations.
const (
	pooledZ = 3
	kindZ   = 4
)

// namesLike reports whether the prefix's keys are names: its letters
// after letters are structured (see [keyMap.judge]), or it takes its
// kin's line (see [keyMaps.judgeKin]).
func (m *keyMap) namesLike() bool {
	return m.kin != nil || m.namesBy[byteKind('a')] || m.namesBy[byteKind('A')]
}

// depthStructured says whether the nodes at depth d after a byte of kind
// are judged structured together: by their depth, or by their kind when
// their depth tells nothing.
func (m *keyMap) depthStructured(d, kind int) bool {
	if d >= len(m.pooled) {
		return false
	}
	if structured, judged := m.pooled[d][kind]; judged {
		return structured
	}
	return m.byKind[kind]
}

// byteKind is the kind of a byte that the bytes after it depend on: a
// digit, a lower-case or an upper-case letter, or the byte itself;
// startKind is the start of a key's part after the prefix.
func byteKind(c byte) int {
	switch {
	case isDigit(c):
		return 1
	case isLower(c):
		return 2
	case isUpper(c):
		return 3
	}
	return 4 + int(c)
}

const startKind = 0

// kindBefore returns the kind of the byte that ends node ("" the start).
func kindBefore(node string) int {
	if node == "" {
		return startKind
	}
	return byteKind(node[len(node)-1])
}

// heavyFor returns what a position whose known keys take seen may take
// after a byte of kind: the whole classes of what it takes and of what
// follows that kind of byte anywhere in the keys, both (a digit of an
// unpadded number is followed by digits or the next delimiter, never by
// a letter of the names before it); either when they have nothing in
// common.
func (m *keyMap) heavyFor(seen []byte, kind int) []byte {
	at, after := m.expand(seen), m.expand(m.follows[kind])
	if len(at) == 0 {
		return nil // no known key goes on here: it ends, or is unseen
	}
	var both []byte
	for _, c := range at {
		if _, found := slices.BinarySearch(after, c); found {
			both = append(both, c)
		}
	}
	if len(both) > 0 {
		return both
	}
	for _, c := range after {
		at = insertByte(at, c)
	}
	return at
}

// expand returns the whole classes of the bytes of set: every digit for
// a digit, every letter of its case (the hex ones when the prefix's
// letters are hex, see [keyMap.letters]) for a letter, and every other
// byte itself.
func (m *keyMap) expand(set []byte) []byte {
	var out []byte
	add := func(from, to byte) {
		for c := from; c <= to; c++ {
			out = insertByte(out, c)
		}
	}
	for _, c := range set {
		switch {
		case isDigit(c):
			add('0', '9')
		case isLower(c):
			add('a', m.lowerTop)
		case isUpper(c):
			add('A', m.upperTop)
		default:
			out = insertByte(out, c)
		}
	}
	return out
}

// letters decides the letter classes of the prefix: its keys' letters of
// a case are the hex ones (a–f) when every letter of that case they hold
// is one and they hold digits too, else the whole alphabet.
func (m *keyMap) letters() {
	var digits, lowerHex, lowerOther, upperHex, upperOther bool
	for _, seen := range m.seen {
		for _, c := range seen {
			switch {
			case isDigit(c):
				digits = true
			case c >= 'a' && c <= 'f':
				lowerHex = true
			case isLower(c):
				lowerOther = true
			case c >= 'A' && c <= 'F':
				upperHex = true
			case isUpper(c):
				upperOther = true
			}
		}
	}
	m.lowerTop, m.upperTop = 'z', 'Z'
	m.wordy = lowerOther || upperOther
	if lowerHex && !lowerOther && digits {
		m.lowerTop = 'f'
	}
	if upperHex && !upperOther && digits {
		m.upperTop = 'F'
	}
}

// room is how a node's room is shared among the next bytes: each heavy
// byte gets unit, each byte of bytes its count besides (cum[j] counts
// bytes[:j]), every other byte unseenWeight, and the end of the key end.
type room struct {
	heavy []byte
	unit  float64
	end   float64
	bytes []byte
	cum   []float64
}

// roomOf returns the room after node, the part of a key after the
// prefix read so far, and whether it is structured; parent says whether
// the node above it is (a node of one known key follows its parent).
func (m *keyMap) roomOf(node string, parent bool) (room, bool) {
	if m.kin != nil {
		return m.kin.roomOf(node, parent)
	}
	d := len(node)
	r := m.classRoom(node)
	if d >= len(m.seen) || m.prefix != "" && !m.namesLike() {
		// A prefix's ids, counters and times spread evenly over their
		// classes: known keys would only bend the line where they
		// happened to fall. The pooled map (of keys of many prefixes, or
		// none) follows the trie, which knows where the prefixes lie.
		return r, false
	}
	bytes, cum, ends, n := branches(m.suffixes, m.runStarts, node)
	// A node borrows the known keys of its segment when they are more: a
	// name's last name, the part after "_", is about the same whatever the
	// first name, so every known key's part after its first "_" that begins
	// as the node's does tells how the node's goes on (see
	// [keyMap.segments]). In a map of a prefix's names (or of its kin's) it
	// does so however many keys the node knows: nodes of a few keys each,
	// laid out by their own branching alone, gave some first and last names
	// far more room than their users (consecutive users of zoe_zhang in a
	// 0.1% sample lay up to 410 times the mean gap between users apart), and
	// the users of the rest crowded. With it, and every map of names on its
	// kin's line (see [keyMaps.judgeKin]), the share of a names piece's line
	// in gaps over 5 times the mean gap between its users fell from 0.75,
	// 0.73 and 0.71 to 0.45, 0.41 and 0.23 at 0.1%, 1% and 10% (94 pieces of
	// four generated shapes; 0.04 where users fall at random, evenly), and
	// the median worst share error of docs/MEASUREMENTS.md's 34 shapes of names from
	// 3.02, 2.09 and 0.65 to 1.78, 1.36 and 0.25 pp (see docs/MEASUREMENTS.md's "Names
	// on their kin's line, by segments"). The pooled map borrows only at a
	// node of fewer than nodeJudgedKeys known keys, as before: its segments
	// are of many prefixes' keys. A node no known key reaches takes its
	// segment's, or else the classes, evenly.
	if n < nodeJudgedKeys || m.prefix != "" {
		if segBytes, segCum, segEnds, segN := m.segmentRoom(node); segN >= nodeJudgedKeys && segN > n {
			bytes, cum, ends, n = segBytes, segCum, segEnds, segN
		}
	}
	bytes, cum, n, enumerated := m.withMarks(node, bytes, cum, n)
	if n+int(ends) == 0 {
		return r, false
	}
	// A node of many known keys is judged by its own branching; one of a
	// few is structured when its depth is or its own branching says so,
	// and one of one key when its depth is, or its parent and it lies
	// within a run of letters or digits (a name goes on as it began; the
	// part after a delimiter need not).
	depth := m.depthStructured(d, kindBefore(node))
	var structured bool
	switch {
	case m.prefix == "" && allDigits(bytes) && len(bytes) == 1 && n >= 2:
		// The pooled map holds the keys of many prefixes, or of none:
		// where every known key goes on with one digit, they share a
		// number's leading digits (epoch times that lead the keys), and
		// the line follows them rather than every number of that width.
		structured = true
	case allDigits(bytes):
		// Digits are a number's: spread evenly, the map is linear in the
		// number, which the keys at a line's ends bound (0 to 4 under
		// 0001 of ids counting to 14728; a constant 0 before them),
		// and a digit's room must not depend on how many known keys
		// took it, or a line across 00029… and 00030… would give each
		// id of the one ten times the room of the other's. In a prefix
		// of names, where the known keys go on with digits only, the room
		// is the digits' (after a name, its number), and the end of the
		// key's where one ends.
		if m.namesLike() {
			r.heavy = digitBytes
			if ends > 0 {
				r.end = 1
			}
		}
		return r, false
	case n >= nodeJudgedKeys:
		structured = occupancyBelow(max(len(r.heavy), 1), n, len(bytes)) < structuredLevel
	case n >= 2:
		structured = depth || occupancyBelow(max(len(r.heavy), 1), n, len(bytes)) < structuredLevel
	default: // within a run of letters or digits, as its parent
		structured = depth || parent && len(node) >= 2 && kindBefore(node) < 4 && kindBefore(node) == kindBefore(node[:len(node)-1])
	}
	if !structured || n == 0 {
		return r, structured
	}
	// The share the bytes no known key takes get: a node of many keys
	// over many bytes will see more (the root of a names prefix), one
	// whose keys agree, few (inside a name), one of one key, which only
	// follows its parent, fewest.
	other := inheritedSmoothing
	if enumerated {
		other = enumeratedSmoothing
	} else if n >= 2 {
		other = (newByteWeight + newByteDiscount*float64(len(bytes)-1)) / (float64(n) + newByteWeight)
	}
	keys := float64(n) + ends
	r.unit = other / (1 - other) * keys / float64(max(len(r.heavy), 1))
	r.end = ends
	if d < len(m.ends) && m.ends[d] {
		r.end += r.unit
	} else {
		r.end += unseenWeight
	}
	r.bytes, r.cum = bytes, cum
	return r, true
}

// classRoom returns the room after node by the prefix's classes alone:
// every byte of the classes its position takes an equal share, every
// other byte unseenWeight of one, and the end of the key a share where a
// known key ends there. It is the room of a prefix whose keys are not
// names (see [keyMap.roomOf]).
func (m *keyMap) classRoom(node string) room {
	d := len(node)
	r := room{end: unseenWeight, unit: 1}
	if d < len(m.heavy) {
		kind := kindBefore(node)
		heavy, ok := m.heavy[d][kind]
		if !ok {
			heavy = m.heavyFor(m.seen[d], kind)
		}
		r.heavy = heavy
	}
	if d < len(m.ends) && m.ends[d] {
		r.end = 1
	}
	return r
}

// digitBytes are the digits, in order.
var digitBytes = []byte("0123456789")

// allDigits reports whether bytes are all digits (and there are some).
func allDigits(bytes []byte) bool {
	return len(bytes) > 0 && !slices.ContainsFunc(bytes, func(c byte) bool { return !isDigit(c) })
}

// childBytes returns the distinct bytes at depth d of keys (sorted,
// sharing their first d bytes).
func childBytes(keys []string, d int) []byte {
	var out []byte
	for _, key := range keys {
		if len(key) > d && (len(out) == 0 || out[len(out)-1] != key[d]) {
			out = append(out, key[d])
		}
	}
	return out
}

// nodeJudgedKeys is how many known keys a node needs to be judged by its
// own branching alone.
const nodeJudgedKeys = 8

// structuredLevel is how unlikely keys spread evenly over a node's bytes
// must be to take as few distinct bytes as the known keys do for the
// node to be judged structured.
const structuredLevel = 0.001

// occupancyBelow returns the chance that n keys, each taking one of kinds
// bytes at random, evenly, take at most distinct distinct bytes.
func occupancyBelow(kinds, n, distinct int) float64 {
	if distinct >= min(kinds, n) {
		return 1
	}
	if n > 64 {
		// Many keys: a normal approximation.
		mean, variance := occupancy(float64(kinds), float64(n))
		z := (float64(distinct) + 0.5 - mean) / math.Sqrt(max(variance, 1e-12))
		return 0.5 * math.Erfc(-z/math.Sqrt2)
	}
	// p[j] is the chance that the keys so far took j distinct bytes.
	p := make([]float64, distinct+2)
	p[0] = 1
	for range n {
		for j := distinct + 1; j >= 0; j-- {
			stay := p[j] * float64(j) / float64(kinds)
			grow := 0.0
			if j > 0 {
				grow = p[j-1] * float64(kinds-j+1) / float64(kinds)
			}
			p[j] = stay + grow
		}
	}
	var below float64
	for j := 0; j <= distinct; j++ {
		below += p[j]
	}
	return below
}

// occupancy returns the mean and variance of how many distinct bytes n
// keys take when each takes one of kinds bytes at random, evenly.
func occupancy(kinds, n float64) (mean, variance float64) {
	empty := math.Pow(1-1/kinds, n)
	mean = kinds * (1 - empty)
	variance = kinds*(kinds-1)*math.Pow(1-2/kinds, n) + kinds*empty - kinds*kinds*empty*empty
	return mean, max(variance, 0)
}

// nodeState returns whether the node above key[:at] (counted from the
// prefix) is structured, walking down from the prefix.
func (m *keyMap) nodeState(key string, at int) bool {
	structured := false
	for i := len(m.prefix); i < at; i++ {
		_, structured = m.roomOf(key[len(m.prefix):i], structured)
	}
	return structured
}

// branches returns how the keys of sorted that start with node go on:
// the next bytes they take, in order, with cum[j] the keys taking
// bytes[:j], the keys equal to node (0 or 1 in a set; any count in a
// list of segments), and how many go on. With runStarts (see
// [keyMap.runStarts]), keys read together count once per run at each
// next byte they take: the consecutive rows of one read share their
// user, so sixteen of them say no more of how a node branches than one.
func branches(sorted []string, runStarts []int, node string) (bytes []byte, cum []float64, ends float64, n int) {
	lo, _ := slices.BinarySearch(sorted, node)
	hi := len(sorted)
	if next := keyspace.PrefixEnd(node); next != "" && node != "" {
		hi, _ = slices.BinarySearch(sorted, next)
	}
	count := func(from, to int) int {
		if runStarts == nil || from >= to {
			return to - from
		}
		// The run under way at from, and those beginning after it.
		return 1 + runStarts[to] - runStarts[from+1]
	}
	at := lo
	for at < hi && sorted[at] == node {
		at++
		ends++
	}
	d := len(node)
	for at < hi {
		c := sorted[at][d]
		next := hi - at // the keys taking c
		if c < 0xff {
			next, _ = slices.BinarySearch(sorted[at:hi], node+string([]byte{c + 1}))
		}
		if cum == nil {
			cum = []float64{0}
		}
		runs := count(at, at+next)
		bytes = append(bytes, c)
		cum = append(cum, cum[len(cum)-1]+float64(runs))
		at += next
		n += runs
	}
	return bytes, cum, ends, n
}

// segmentRoom returns how the known keys' segments go on after the
// segment node ends in (see [keyMap.segments]), as [branches] does.
func (m *keyMap) segmentRoom(node string) (bytes []byte, cum []float64, ends float64, n int) {
	index, from := 0, 0
	for i := 0; i < len(node); i++ {
		if !isAlnum(node[i]) {
			index, from = index+1, i+1
		}
	}
	if index >= len(m.segments) {
		return nil, nil, 0, 0
	}
	return branches(m.segments[index], nil, node[from:])
}

// before returns the weight of everything below byte c: the end of the
// key and the bytes under c.
func (r room) before(c int) float64 {
	n := sort.Search(len(r.heavy), func(j int) bool { return int(r.heavy[j]) >= c })
	w := r.end + r.unit*float64(n) + unseenWeight*float64(c-n)
	if r.cum != nil {
		w += r.cum[sort.Search(len(r.bytes), func(j int) bool { return int(r.bytes[j]) >= c })]
	}
	return w
}

// weight returns byte c's weight.
func (r room) weight(c byte) float64 {
	w := unseenWeight
	if _, found := slices.BinarySearch(r.heavy, c); found {
		w = r.unit
	}
	if j, found := slices.BinarySearch(r.bytes, c); found {
		w += r.cum[j+1] - r.cum[j]
	}
	return w
}

// total returns the weight of the whole room.
func (r room) total() float64 { return r.before(256) }

// finest is the narrowest share of the line a key's bytes are read to:
// past it, float64 cannot tell two places apart.
const finest = 1e-17

// position returns key's place on the line in [0, 1), reading key from
// byte from on (keys sharing their first from bytes, at least the
// prefix).
func (m *keyMap) position(key string, from int) float64 {
	return m.triePosition(key, from)
}

// walkPosition returns key's place read from byte from on, each node's
// room given by roomAt.
func (m *keyMap) walkPosition(key string, from int, roomAt func(node string) room) float64 {
	v, width := 0.0, 1.0
	for i := from; i < len(key) && width > finest; i++ {
		r := roomAt(key[len(m.prefix):i])
		total := r.total()
		v += width * r.before(int(key[i])) / total
		width *= r.weight(key[i]) / total
	}
	return v
}

// key returns a short key at or below place v of the line (keys starting
// with common, at least the prefix, read from byte len(common) on): to
// the map's precision, the largest key whose position is not above v.
func (m *keyMap) key(common string, v float64) string {
	return m.trieKey(common, v)
}

// walkKey returns the key at place v below common, each node's room
// given by roomAt.
func (m *keyMap) walkKey(common string, v float64, roomAt func(node string) room) string {
	b := []byte(common)
	for width := 1.0; width > finest; {
		r := roomAt(string(b[len(m.prefix):]))
		total := r.total()
		target := v / width * total // in the room's weights
		if target < r.end {
			break // the key ends here
		}
		c := sort.Search(256, func(c int) bool { return r.before(c+1) > target }) // the byte whose share holds target
		c = min(c, 255)
		v -= width * r.before(c) / total
		width *= r.weight(byte(c)) / total
		b = append(b, byte(c))
		if v < width*1e-9 {
			break
		}
	}
	return string(b)
}

// triePosition returns key's place read from byte from on, on the trie of
// the known keys.
func (m *keyMap) triePosition(key string, from int) float64 {
	structured := m.nodeState(key, from)
	return m.walkPosition(key, from, func(node string) room {
		var r room
		r, structured = m.roomOf(node, structured)
		return r
	})
}

// trieKey returns the key at place v below common on the trie of the
// known keys.
func (m *keyMap) trieKey(common string, v float64) string {
	structured := m.nodeState(common, len(common))
	return m.walkKey(common, v, func(node string) room {
		var r room
		r, structured = m.roomOf(node, structured)
		return r
	})
}

// segment is the part of a prefix's line that a key range [start, end)
// covers: keys share the range's common prefix, and positions are read
// after it.
type segment struct {
	m          *keyMap
	common     string
	start, end float64
}

// segmentOf returns the line segment of the key range [start, end) of
// the map's prefix; an empty end, or one past the prefix, is the
// prefix's end.
func (m *keyMap) segmentOf(start, end string) segment {
	if !strings.HasPrefix(start, m.prefix) {
		start = m.prefix
	}
	if !strings.HasPrefix(end, m.prefix) {
		end = ""
	}
	common := m.prefix
	if end != "" {
		common = max(common, commonPrefix(start, end))
	}
	s := segment{m: m, common: common, start: m.position(start, len(common)), end: 1}
	if end != "" {
		s.end = m.position(end, len(common))
	}
	return s
}

// commonPrefix returns the longest prefix a and b share.
func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// at returns the key at share u (0 ≤ u ≤ 1) of the segment.
func (s segment) at(u float64) string {
	return s.m.key(s.common, s.start+u*(s.end-s.start))
}

// share returns where key lies in the segment, from 0 to 1.
func (s segment) share(key string) float64 {
	switch {
	case !strings.HasPrefix(key, s.common) && key < s.common:
		return 0
	case !strings.HasPrefix(key, s.common):
		return 1
	case s.end <= s.start:
		return 0
	}
	u := (s.m.position(key, len(s.common)) - s.start) / (s.end - s.start)
	return min(max(u, 0), 1)
}

// length returns the segment's length on the prefix's whole line (from
// the end of the prefix): the measure densities are taken in.
func (m *keyMap) length(start, end string) float64 {
	from, to := m.stretch(start, end)
	return max(0, to-from)
}

// stretch returns where the key range [start, end) starts and ends on
// the prefix's whole line: from 0 and to 1 where a key lies outside the
// prefix.
func (m *keyMap) stretch(start, end string) (from, to float64) {
	from, to = 0, 1
	if strings.HasPrefix(start, m.prefix) {
		from = m.position(start, len(m.prefix))
	}
	if strings.HasPrefix(end, m.prefix) {
		to = m.position(end, len(m.prefix))
	}
	return from, to
}

// keyMaps holds a key map per top-level prefix, and one of the table's
// keys as a whole for ranges that hold several prefixes (past
// maxPieces) or keys without delimiters.
type keyMaps struct {
	top    func(key string) string // the key's top-level prefix ("" without delimiters)
	maps   map[string]*keyMap
	pooled *keyMap
	// kin is the map of the keys after their prefix of the prefixes
	// that hold names (see [keyMaps.judgeKin]).
	kin *keyMap
	// extremes are the first and last rows of prefixes that discovery
	// read (see [keyMaps.learnEnd]).
	extremes map[string]bool
}

// learnEnd adds the first or last row of a prefix, read by discovery
// (see [scanner.discover]), as a run of its own; the kin's map leaves it
// out (see [keyMaps.judgeKin]).
func (k *keyMaps) learnEnd(key string) {
	k.learnRun("", key)
	if key != "" {
		k.extremes[key] = true
	}
}

// newKeyMaps returns empty maps for the top-level prefixes top gives.
func newKeyMaps(top func(string) string) *keyMaps {
	return &keyMaps{top: top, maps: map[string]*keyMap{}, pooled: newKeyMap(""), extremes: map[string]bool{}}
}

// learn adds known keys spread over the table to their prefixes' maps
// and to the pooled map (see [keyMap.learn]).
func (k *keyMaps) learn(keys ...string) {
	for _, key := range keys {
		if key != "" {
			k.pooled.learn(key)
			k.mapOf(key).learn(key)
		}
	}
}

// mark adds keys that begin first segments of names to their prefixes'
// maps (see [keyMap.marks]).
func (k *keyMaps) mark(keys ...string) {
	for _, key := range keys {
		if key != "" {
			k.mapOf(key).mark(key)
		}
	}
}

// bound adds tablet boundaries to their prefixes' maps and to the pooled
// map (see [keyMap.bound]).
func (k *keyMaps) bound(keys ...string) {
	for _, key := range keys {
		if key != "" {
			k.pooled.bound(key)
			k.mapOf(key).bound(key)
		}
	}
}

// learnRun adds keys read together to their prefixes' maps (see
// [keyMap.learnRun]) and to the pooled map: the first as a witness (none
// when it is empty), all of them counted as one run.
func (k *keyMaps) learnRun(keys ...string) {
	if len(keys) > 0 && keys[0] != "" {
		k.pooled.witness(keys[0])
		k.mapOf(keys[0]).witness(keys[0])
	}
	keys = slices.DeleteFunc(slices.Clone(keys), func(key string) bool { return key == "" })
	if len(keys) == 0 {
		return
	}
	k.pooled.learnRun(keys...)
	for lo := 0; lo < len(keys); {
		m := k.mapOf(keys[lo])
		hi := lo + 1
		for hi < len(keys) && k.mapOf(keys[hi]) == m {
			hi++
		}
		m.learnRun(keys[lo:hi]...)
		lo = hi
	}
}

// learnBytes adds the bytes of keys read together (see
// [keyMap.learnBytes]).
func (k *keyMaps) learnBytes(keys ...string) {
	for _, key := range keys {
		if key != "" {
			k.pooled.learnBytes(key)
			k.mapOf(key).learnBytes(key)
		}
	}
}

// mapOf returns the map of key's top-level prefix, made if need be.
func (k *keyMaps) mapOf(key string) *keyMap {
	prefix := k.top(key)
	m := k.maps[prefix]
	if m == nil {
		m = newKeyMap(prefix)
		k.maps[prefix] = m
	}
	return m
}

// judge judges every map (see [keyMap.judge]), then which of them take
// their kin's line (see [keyMaps.judgeKin]).
func (k *keyMaps) judge() {
	k.pooled.judge()
	dirty := false
	for _, m := range k.maps {
		dirty = dirty || m.dirty
		m.judge()
	}
	if dirty || k.kin == nil {
		k.judgeKin()
	}
}

// of returns the map of the range [start, end): its prefix's when both
// keys lie in one top-level prefix (or end is that prefix's end, or the
// table's), else the pooled one.
func (k *keyMaps) of(start, end string) *keyMap {
	prefix := k.top(start)
	if m := k.maps[prefix]; m != nil && prefix != "" && (end == "" || strings.HasPrefix(end, prefix) || end == keyspace.PrefixEnd(prefix)) {
		return m
	}
	return k.pooled
}
