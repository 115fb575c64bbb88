// Package keyspace is btviz's model of a table's key space: the
// [Snapshot]. A snapshot holds the tablet map from SampleRowKeys, a prefix
// tree that splits row keys at their delimiters with aggregated [Stats]
// and cell-write histograms ([TimeHist]) per node, the largest and most
// versioned rows, a uniform row sample, and how the scan was made.
//
// A [Builder] aggregates rows as a scan streams them; its memory is
// bounded by [Options] (node fan-out, total nodes, list lengths), not by
// the number of rows, so a billion-row table and a thousand-row table give
// snapshots of similar size. The package does no I/O other than [Save] and
// [Load].
//
// # Snapshot file format (versions 1 and 2)
//
// A snapshot file is a gzip stream (RFC 1952) holding one JSON object:
//
//	{"format": "btviz-snapshot", "version": 1, "snapshot": {...}}
//
// Version 2 is the same with the table's hot tablets in
// "snapshot.hot_tablets" ([HotTablets]: where they came from, the
// clusters and window asked, and the samples, keys inclusive as the
// instance admin API gives them); a snapshot without them is written as
// version 1, which every btviz reads. Their CPU on the tree ([Node.CPU])
// is placed again when the file is read, not stored.
//
// "snapshot" is the [Snapshot] with the JSON field names of its struct
// tags. Row keys and key-range bounds are strings escaped by [Printable]:
// printable ASCII stays, a backslash and every other byte are written as
// \xNN, so any key survives the round trip through JSON exactly. An empty
// range end means the end of the table. Times are RFC 3339, durations
// nanoseconds, cell timestamps microseconds since the Unix epoch. Readers
// refuse a file whose version is newer than theirs; fields added within a
// version are optional.
//
// What btviz writes, btviz reads: the writers keep every file inside the
// limits of limits.go, which the reader's own bounds lie above. A key
// longer than [KeptKeyBytes] (only an emulator takes one) is cut, and
// "long_keys" notes its full length and SHA-256; the tree, the sample,
// the tablet map and a recording's hot lists keep fewer entries when
// their keys are long, so that their keys stay within budgets of bytes as
// written; free text (names, reasons) is cut past [MaxTextBytes] with its
// length noted, when written and when read.
//
// A reader trusts nothing in a file: it refuses one that decompresses to
// more than a limit ([DefaultMaxFileBytes] unless a [Reader] says
// otherwise) after a pass that keeps none of it, and checks every value
// before any other code sees it: known enumerations, counts finite,
// non-negative and bounded (the scan's too), estimates inside their 95%
// intervals, write times on a time grid whose arithmetic cannot overflow
// with first ≤ last, bounded lists with no null items, keys of at most
// 64 KiB, children sorted, disjoint, inside their parent and adding up to
// no more than it. A file that breaks a rule is refused with [ErrDamaged] and a
// [FieldError] naming the value by its JSON path
// ("snapshot.root.children[3].writes.first"). A recording is checked table
// by table: a damaged table is left out and named ([File.Damaged]), and
// the file is refused only when no table is left.
//
// # Recording file format (version 1)
//
// A recording file is a snapshot file whose object is
//
//	{"format": "btviz-recording", "version": 1, "recording": {...}}
//
// "recording" is the [Recording]: "started", "duration_ns", "upstream",
// "complete" (false for a file written while the proxy still ran: the
// last periodic write of a recording that was cut off), "undecoded",
// "too_large", "not_found" and "over_limit" (calls on tables the
// upstream answered NotFound for, and on tables beyond [RecordingTables]:
// counted, with the most called names, never built), and "tables", each a
// snapshot whose "traffic" holds the time grid, the calls by method and
// the hot rows and scans ("merged" when it was made of several
// recordings, [MergeRecordings]), and whose tree's nodes carry their
// traffic, with the latency of the calls that touched them when the
// proxy timed them ("latency": [NodeLatency], optional). The
// tables of an incomplete recording say so in their scan ("complete":
// false, "incomplete": why) and their traffic ("incomplete").
package keyspace
