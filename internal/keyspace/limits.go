package keyspace

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The limits of what btviz keeps, in one table: the writers (the
// [Builder] of a scan or a recording, the [RecordingBuilder]) keep what
// they write inside them, and the file reader ([Reader.DecodeFile])
// refuses a file beyond its own, which lie above the writers' with room
// to spare. TestWrittenAtEachLimitReadsBack writes a file at each limit
// and reads it back.
//
//	what                         writers keep                 a file may hold
//	a key (row, bound, column)   KeptKeyBytes (8 KiB), then   maxFileKeyBytes (64 KiB)
//	                             cut, its length and SHA-256
//	                             in the snapshot's long_keys
//	long keys noted              LongKeysKept (20), fewer     maxFileRowList
//	                             when keys are long
//	the tree's key bytes         TreeKeyBytes (64 MB as       the file's size,
//	                             written): fewer nodes for    DefaultMaxFileBytes
//	                             longer keys                  (256 MB)
//	the sample's key bytes       SampleKeyBytes (32 MB as     the file's size
//	                             written): fewer rows
//	the tablet map's key bytes   RangeKeyBytes (32 MB as      the file's size
//	                             written): neighbours merged
//	free text (names, reasons)   MaxTextBytes (1 KiB), then   cut as it is read
//	                             cut, its length noted
//	tables of a recording        RecordingTables (256)        maxFileTables (4,096)
//	nodes of a recording         RecordingNodes (64,000)      maxFileNodes per table
//	key bytes of a recording     RecordingKeyBytes (96 MB),   the file's size
//	                             shared as the nodes are;
//	                             hot lists shorter for long
//	                             keys
//	tables that do not exist     counted, never built;        maxFileRowList names
//	                             NotFoundNamesKept names
//	a sample's prefix variances  one a top-level prefix       maxFileNodes
//	                             (fewer than the tree's nodes)
//	hot-tablet samples           HotTabletsKept (20,000),     maxFileRowList
//	                             the highest CPU first
//
// Every budget of key bytes is of keys as written: escaped, a byte
// outside printable ASCII takes up to six characters. Keys under 64 bytes
// never meet one; a table of 8 KiB binary keys keeps about a hundred
// nodes, and a recording of 256 such tables keeps each table's totals and
// its hottest row and scan. So no file btviz writes is over about 200 MB
// however long its keys (TestWrittenAtTheKeyLimitsReadsBack).
//
// A table the data API answered NotFound for (a typo, a table not yet
// created) gets no tree: its calls are counted by name, so that an
// application calling thousands of missing tables costs a counter each,
// not a builder each.
const (
	// KeptKeyBytes is the longest key kept whole: twice Cloud Bigtable's
	// hard limit on a row key, so every key a Cloud table holds, and the
	// keys a little over it that an emulator takes (and long-row-key
	// reports), are kept as they are. A longer key (an emulator takes
	// any) is cut to KeptKeyBytes bytes ([cutKey]: its head, its last
	// bytes and a hash of it) and noted with its length and SHA-256 in
	// [Snapshot.LongKeys]; [Stats.MaxKeyBytes] and the key-byte totals
	// count its full length.
	KeptKeyBytes = 8 << 10
	// LongKeysKept is how many long keys a snapshot notes, the longest.
	LongKeysKept = 20
	// TreeKeyBytes bounds the bytes the prefix tree's keys take in a file,
	// escaped as written (a byte outside printable ASCII takes up to six):
	// each node carries its key up to [nodeKeyCopies] times (prefix,
	// bounds, first and last keys, its top rows). A tree of long keys
	// keeps fewer nodes; keys under 200 bytes never meet it.
	TreeKeyBytes = 64 << 20
	// SampleKeyBytes bounds the bytes the row sample's keys take in a
	// file, escaped as written: a sample of long keys keeps fewer rows.
	SampleKeyBytes = 32 << 20
	// RecordingTables bounds the tables a recording builds; calls on
	// tables beyond it are counted ([Recording.TablesLeftOut]).
	RecordingTables = 256
	// RecordingNodes bounds the tree nodes of all of a recording's tables
	// together: each table gets [DefaultTrafficNodes] until the tables
	// share more, then an equal part.
	RecordingNodes = 64000
	// RecordingKeyBytes bounds the key bytes of all of a recording's
	// tables together, as written: each table gets [TreeKeyBytes] until
	// the tables share more, then an equal part.
	RecordingKeyBytes = 96 << 20
	// RangeKeyBytes bounds the bytes the tablet map's keys take in a file,
	// as written: a map of long keys has its neighbouring ranges merged.
	RangeKeyBytes = 32 << 20
	// NotFoundNamesKept is how many tables answered NotFound a recording
	// names (the most called); the rest are counted.
	NotFoundNamesKept = 64
	// HotTabletsKept is how many hot-tablet samples a snapshot keeps, the
	// highest CPU first: a tablet hot through 14 days gives 1,344 (the API
	// keeps one sample per tablet per 15 minutes), so 20,000 hold
	// fifteen such tablets.
	HotTabletsKept = 20000
)

// Internal limits that follow from the table above.
const (
	// nodeKeyCopies is how many times a node's JSON can hold a key as
	// long as the longest: prefix, start, end, first and last key, the
	// first and last key of its traffic, and its three largest and three
	// most versioned rows.
	nodeKeyCopies = 13
	// maxEscapedByte is the most characters one key byte takes in a file:
	// \u003c for <, > and & (encoding/json's HTML escaping).
	maxEscapedByte = 6
	// shortKeyBytes is a key length below which no key budget binds
	// (20,000 nodes of such keys, all escaped, take under 100 MB), so
	// the builder does not measure shorter keys.
	shortKeyBytes = 64
	// minSampleRows is the fewest rows the sample keeps, however long
	// the keys (24 MB of such keys).
	minSampleRows = 500
	// cutTailBytes and cutHashBytes are how much of a cut key is its last
	// bytes and a hash of the whole key, in hex: keys that share a long
	// head (a long path, then an ID) stay apart and in order, and keys
	// that differ only in the middle stay apart.
	cutTailBytes = 64
	cutHashBytes = 16
)

// LongKey notes a key longer than [KeptKeyBytes]: the key as kept (its
// first KeptKeyBytes bytes), its full length and the SHA-256 of the whole
// key, which tells two long keys apart that the cut makes equal.
type LongKey struct {
	Key    Key    `json:"key"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// cutKey returns key as a file keeps it: whole up to [KeptKeyBytes], else
// cut to KeptKeyBytes bytes: its head, then its last [cutTailBytes] bytes
// and [cutHashBytes] hex digits of its SHA-256. Cut keys keep the order of
// their heads ([cutHead]); those with one head are ordered by their tails,
// which is key order when they differ only at the end (a long path, then
// an ID).
func cutKey(key string) string {
	if len(key) <= KeptKeyBytes {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return cutHead(key) + key[len(key)-cutTailBytes:] + hex.EncodeToString(sum[:])[:cutHashBytes]
}

// cutHead returns the head a key longer than [KeptKeyBytes] keeps when it
// is cut: every cut key of a head sorts in [head, PrefixEnd(head)).
func cutHead(key string) string { return key[:KeptKeyBytes-cutTailBytes-cutHashBytes] }

// cutRange returns the range [start, end) with its bounds cut: where the
// cut puts the end at or before the start (both bounds share a head),
// the range of every key of that head.
func cutRange(start, end string) (string, string) {
	cs, ce := cutKey(start), cutKey(end)
	if ce != "" && ce <= cs {
		// Both share the head a cut keeps (else the cut keeps their order).
		head := start[:min(len(start), KeptKeyBytes-cutTailBytes-cutHashBytes)]
		return head, PrefixEnd(head)
	}
	return cs, ce
}

// longKeyOf notes key, longer than [KeptKeyBytes].
func longKeyOf(key string) LongKey {
	sum := sha256.Sum256([]byte(key))
	return LongKey{Key: Key(cutKey(key)), Bytes: int64(len(key)), SHA256: hex.EncodeToString(sum[:])}
}

// noteLongKey adds a long key to list, keeping the [LongKeysKept]
// longest, longest first, each key once.
func noteLongKey(list []LongKey, key string) []LongKey {
	if len(list) == LongKeysKept && int64(len(key)) <= list[len(list)-1].Bytes {
		return list
	}
	long := longKeyOf(key)
	if slices.ContainsFunc(list, func(l LongKey) bool { return l.SHA256 == long.SHA256 }) {
		return list
	}
	return mergeLongKeys(list, []LongKey{long})
}

// mergeLongKeys folds other into list: the [LongKeysKept] longest of
// both, longest first, each key once.
func mergeLongKeys(list, other []LongKey) []LongKey {
	for _, l := range other {
		if !slices.ContainsFunc(list, func(have LongKey) bool { return have.SHA256 == l.SHA256 }) {
			list = append(list, l)
		}
	}
	slices.SortStableFunc(list, func(a, b LongKey) int {
		switch {
		case a.Bytes > b.Bytes:
			return -1
		case a.Bytes < b.Bytes:
			return 1
		}
		return 0
	})
	if len(list) > LongKeysKept {
		list = list[:LongKeysKept]
	}
	return list
}

// escapedBytes is, per byte value, how many characters it takes in a
// file's JSON: escaped by [Printable] (\xNN for every byte outside
// printable ASCII and for the backslash), then by encoding/json (\\ for
// the backslash, \" for a quote, \u00NN for <, > and &).
var escapedBytes = func() (n [256]uint8) {
	for c := range 256 {
		switch {
		case c == '\\' || c < 0x20 || c > 0x7e:
			n[c] = 5 // \\xNN
		case c == '"':
			n[c] = 2
		case c == '<' || c == '>' || c == '&':
			n[c] = 6
		default:
			n[c] = 1
		}
	}
	return n
}()

// fileKeyBytes returns how many characters key takes in a file.
func fileKeyBytes(key string) int {
	n := 0
	for i := 0; i < len(key); i++ {
		n += int(escapedBytes[key[i]])
	}
	return n
}

// keyBudget follows the longest key a builder keeps, as written in a
// file, and turns its budget of key bytes ([TreeKeyBytes], or a table's
// part of [RecordingKeyBytes]) and [SampleKeyBytes] into the most nodes,
// sample rows and list rows that keys that long allow.
type keyBudget struct {
	// longest is the most characters a kept key takes in a file.
	longest int
	// bytes is the budget of the tree's and the lists' keys (0:
	// [TreeKeyBytes]).
	bytes int
}

// note measures key (already cut to [KeptKeyBytes]) and reports whether
// it is the longest yet, as written: the budgets then shrink.
func (k *keyBudget) note(key string) bool {
	if len(key) < shortKeyBytes || len(key)*maxEscapedByte <= k.longest {
		return false
	}
	n := fileKeyBytes(key)
	if n <= k.longest {
		return false
	}
	k.longest = n
	return true
}

// budget returns the bytes the tree's and the lists' keys may take.
func (k *keyBudget) budget() int {
	if k.bytes > 0 {
		return k.bytes
	}
	return TreeKeyBytes
}

// nodes returns the most tree nodes keys as long as the longest allow,
// at most limit and at least the root.
func (k *keyBudget) nodes(limit int) int {
	if k.longest == 0 {
		return limit
	}
	return max(min(limit, k.budget()/(nodeKeyCopies*k.longest)), 1)
}

// listRows returns how many rows each of a snapshot's lists of keys (the
// hot rows and scans, the long keys) keeps, at most limit: their keys
// take at most an eighth of the budget, and each list keeps its first.
func (k *keyBudget) listRows(limit int) int {
	if k.longest == 0 {
		return limit
	}
	return max(min(limit, k.budget()/(listKeyCopies*k.longest)), 1)
}

// sampleRows returns the most sample rows keys as long as the longest
// allow, at most limit.
func (k *keyBudget) sampleRows(limit int) int {
	if k.longest == 0 {
		return limit
	}
	return max(min(limit, SampleKeyBytes/k.longest), min(limit, minSampleRows))
}

// listKeyCopies is how many keys as long as the longest one row of each
// of a snapshot's lists takes: a hot read, a hot write, a hot scan's two
// bounds and a long key, times eight (the lists' part of the budget).
const listKeyCopies = 5 * 8

// MaxTextBytes is the longest free text a file keeps whole: a table,
// project, instance, app profile or family name (Cloud Bigtable's are
// at most 64 bytes), an upstream, a method name, the reason a scan
// stopped. A longer one — a crafted file's, a server message's — is cut
// to about this length, ending "… (N bytes)" with its full length, when
// it is written and when it is read, so that no output echoes megabytes
// of it.
const MaxTextBytes = 1 << 10

// cutText returns s as a file keeps it ([MaxTextBytes]).
func cutText(s string) string {
	if len(s) <= MaxTextBytes {
		return s
	}
	n := MaxTextBytes - 32 // room for the note
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// cutTexts cuts every free text of the snapshot to [MaxTextBytes].
func (s *Snapshot) cutTexts() {
	for _, text := range []*string{&s.Project, &s.Instance, &s.Table, &s.AppProfile, &s.Scan.Incomplete} {
		*text = cutText(*text)
	}
	for i := range s.Families {
		s.Families[i] = cutText(s.Families[i])
	}
	if t := s.Traffic; t != nil {
		t.Upstream, t.Incomplete = cutText(t.Upstream), cutText(t.Incomplete)
		cutMethods(t.Methods)
	}
	if s.Root != nil && s.Traffic != nil {
		s.Root.Walk(func(n *Node) bool {
			if n.Traffic != nil {
				cutMethods(n.Traffic.Methods)
			}
			return true
		})
	}
}

// cutMethods cuts the method names of a list to [MaxTextBytes].
func cutMethods(methods []MethodCount) {
	for i := range methods {
		if len(methods[i].Method) > MaxTextBytes {
			methods[i].Method = cutText(methods[i].Method)
		}
	}
}
