// Package heatmaptest holds the synthetic tables the heatmap and render
// tests draw: deterministic rows shaped like the demo Scenarios (a
// timestamp-first diagonal, reversed timestamps, a celebrity, a large row,
// hashed keys) and the snapshot a full scan of them would build.
package heatmaptest

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Epoch is the fixed "now" of every synthetic scenario.
var Epoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// Scenario is a deterministic synthetic table shaped like one of the
// demo Scenarios.
type Scenario struct {
	Name string
	Rows func() []keyspace.Row
}

// Scenarios returns the demo-shaped tables the golden tests draw.
func Scenarios() []Scenario {
	return []Scenario{
		{"timestamp-first", TimestampFirstRows},
		{"device-reversed-ts", DeviceReversedRows},
		{"celebrity", CelebrityRows},
		{"large-row", LargeRowRows},
		{"hashed", HashedRows},
	}
}

// NewRand returns a random source seeded by name, the same every run.
func NewRand(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), 7))
}

// CellAt returns a cell of family:qualifier written at at, of size value
// bytes.
func CellAt(family, qualifier string, at time.Time, size int64) keyspace.Cell {
	return keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: at.UnixMicro(), ValueBytes: size}
}

// TimestampFirstRows returns machine metrics keyed "<millis>#machine_NNNN", one
// reading every 2 s over 11 hours: every write lands at the end of the
// key space (the diagonal).
func TimestampFirstRows() []keyspace.Row {
	r := NewRand("timestamp-first")
	rows := make([]keyspace.Row, 20_000)
	for i := range rows {
		at := Epoch.Add(time.Duration(i) * 2 * time.Second)
		rows[i] = keyspace.Row{
			Key:   fmt.Sprintf("%013d#machine_%04d", at.UnixMilli(), r.IntN(400)),
			Cells: []keyspace.Cell{CellAt("m", "cpu", at, 8), CellAt("m", "mem", at, 8)},
		}
	}
	return rows
}

// DeviceReversedRows returns "device_NNN#<reversed millis>", 200 devices writing
// all day: an even spread (the good design).
func DeviceReversedRows() []keyspace.Row {
	r := NewRand("device-reversed-ts")
	var rows []keyspace.Row
	for d := range 200 {
		for range 80 {
			at := Epoch.Add(time.Duration(r.Int64N(int64(24 * time.Hour))))
			rows = append(rows, keyspace.Row{
				Key:   fmt.Sprintf("device_%03d#%019d", d, int64(math.MaxInt64)-at.UnixMilli()),
				Cells: []keyspace.Cell{CellAt("m", "reading", at, 64)},
			})
		}
	}
	return rows
}

// CelebrityHandle is the hot user of the celebrity scenario.
const CelebrityHandle = "mila_rosewood"

// CelebrityRows returns a social feed "user#<handle>#<millis>" over 7 days where
// one user has 38 % of the rows, most of her recent ones in the last day.
func CelebrityRows() []keyspace.Row {
	r := NewRand("celebrity")
	const events, users = 20_000, 1_500
	celebrity := events * 38 / 100
	names := []string{"ada", "ben", "cora", "dev", "eli", "fay", "gus", "hana", "ivo", "jon", "kai", "lea", "max",
		"nia", "otto", "pia", "quin", "rosa", "sam", "tia", "uma", "vic", "wes", "xia", "yan", "zoe"}
	window := 7 * 24 * time.Hour
	var rows []keyspace.Row
	add := func(handle string, at time.Time) {
		rows = append(rows, keyspace.Row{
			Key:   fmt.Sprintf("user#%s#%013d", handle, at.UnixMilli()),
			Cells: []keyspace.Cell{CellAt("e", "json", at, 120+r.Int64N(200))},
		})
	}
	for i := range celebrity {
		at := Epoch.Add(time.Duration(r.Int64N(int64(window - 24*time.Hour))))
		if i < celebrity*45/100 {
			at = Epoch.Add(window - 24*time.Hour + time.Duration(r.Int64N(int64(24*time.Hour))))
		}
		add(CelebrityHandle, at)
	}
	for range events - celebrity {
		u := int(math.Pow(r.Float64(), 1.6) * users) // mild skew
		add(fmt.Sprintf("%s_%04d", names[u%len(names)], u), Epoch.Add(time.Duration(r.Int64N(int64(window)))))
	}
	return rows
}

// LargeRowKey is the oversized row of the large-row scenario.
const LargeRowKey = "media#studio_ingest#raw-cam04-20261030"

// LargeRowRows returns "media#<owner>#<hex id>" assets of about 2 KB and one row
// of 120 MB (120 cells of 1 MB).
func LargeRowRows() []keyspace.Row {
	r := NewRand("large-row")
	owners := []string{"archive", "brand_team", "finance_team", "marketing", "product", "social", "studio_ingest", "support"}
	var rows []keyspace.Row
	for range 10_000 {
		at := Epoch.Add(time.Duration(r.Int64N(int64(72 * time.Hour))))
		rows = append(rows, keyspace.Row{
			Key:   fmt.Sprintf("media#%s#%08x", owners[r.IntN(len(owners))], r.Uint32()),
			Cells: []keyspace.Cell{CellAt("meta", "json", at, 300), CellAt("blob", "thumb", at, 512+r.Int64N(1536))},
		})
	}
	big := keyspace.Row{Key: LargeRowKey}
	at := Epoch.Add(30 * time.Hour)
	for i := range 120 {
		big.Cells = append(big.Cells, CellAt("blob", fmt.Sprintf("chunk%03d", i), at.Add(time.Duration(i)*time.Second), 1<<20))
	}
	return append(rows, big)
}

// HashedRows returns "<16 hex of a hash>#order", written over a week: an even,
// meaningless spread.
func HashedRows() []keyspace.Row {
	r := NewRand("hashed")
	rows := make([]keyspace.Row, 12_000)
	for i := range rows {
		h := fnv.New64a()
		fmt.Fprintf(h, "order:%d", i)
		at := Epoch.Add(time.Duration(r.Int64N(int64(7 * 24 * time.Hour))))
		rows[i] = keyspace.Row{Key: fmt.Sprintf("%016x#order", h.Sum64()), Cells: []keyspace.Cell{CellAt("doc", "json", at, 400)}}
	}
	return rows
}

// BuildSnapshot sorts rows by key as a scan returns them, derives an
// emulator-like tablet map (a boundary every rowsPerRange rows) and builds
// the snapshot.
func BuildSnapshot(tb testing.TB, table string, rows []keyspace.Row, opts keyspace.Options) *keyspace.Snapshot {
	tb.Helper()
	slices.SortFunc(rows, func(a, b keyspace.Row) int { return strings.Compare(a.Key, b.Key) })
	const rowsPerRange = 500
	var ranges []keyspace.Range
	start := ""
	for i := rowsPerRange; i < len(rows); i += rowsPerRange {
		ranges = append(ranges, keyspace.Range{Start: keyspace.Key(start), End: keyspace.Key(rows[i].Key)})
		start = rows[i].Key
	}
	ranges = append(ranges, keyspace.Range{Start: keyspace.Key(start)})
	opts.Seed = 1
	b := keyspace.NewBuilder(&keyspace.Snapshot{
		Source: keyspace.SourceEmulator, Project: "local", Instance: "btviz", Table: table, Ranges: ranges,
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true, Started: Epoch},
	}, opts)
	for i := range rows {
		rows[i].Weight = 1
		b.Add(&rows[i])
	}
	for i := range ranges {
		b.MarkRange(i, false)
	}
	snap := b.Snapshot()
	snap.Scan.RowsEstimated = snap.Scan.RowsRead
	snap.Scan.BytesEstimated = int64(snap.Root.Bytes)
	return snap
}

// ScenarioSnapshot builds the named scenario's snapshot.
func ScenarioSnapshot(tb testing.TB, name string) *keyspace.Snapshot {
	tb.Helper()
	for _, s := range Scenarios() {
		if s.Name == name {
			return BuildSnapshot(tb, s.Name, s.Rows(), keyspace.Options{})
		}
	}
	tb.Fatalf("no Scenario %q", name)
	return nil
}
