package heatmap

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

// epoch is the fixed "now" of every synthetic scenario.
var epoch = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// scenario is a deterministic synthetic table shaped like one of the
// demo scenarios.
type scenario struct {
	name string
	rows func() []keyspace.Row
}

// scenarios returns the demo-shaped tables the golden tests draw.
func scenarios() []scenario {
	return []scenario{
		{"timestamp-first", timestampFirstRows},
		{"device-reversed-ts", deviceReversedRows},
		{"celebrity", celebrityRows},
		{"large-row", largeRowRows},
		{"hashed", hashedRows},
	}
}

func newRand(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(h.Sum64(), 7))
}

func cellAt(family, qualifier string, at time.Time, size int64) keyspace.Cell {
	return keyspace.Cell{Family: family, Qualifier: qualifier, Timestamp: at.UnixMicro(), ValueBytes: size}
}

// timestampFirstRows: machine metrics keyed "<millis>#machine_NNNN", one
// reading every 2 s over 11 hours: every write lands at the end of the
// key space (the diagonal).
func timestampFirstRows() []keyspace.Row {
	r := newRand("timestamp-first")
	rows := make([]keyspace.Row, 20_000)
	for i := range rows {
		at := epoch.Add(time.Duration(i) * 2 * time.Second)
		rows[i] = keyspace.Row{
			Key:   fmt.Sprintf("%013d#machine_%04d", at.UnixMilli(), r.IntN(400)),
			Cells: []keyspace.Cell{cellAt("m", "cpu", at, 8), cellAt("m", "mem", at, 8)},
		}
	}
	return rows
}

// deviceReversedRows: "device_NNN#<reversed millis>", 200 devices writing
// all day: an even spread (the good design).
func deviceReversedRows() []keyspace.Row {
	r := newRand("device-reversed-ts")
	var rows []keyspace.Row
	for d := range 200 {
		for range 80 {
			at := epoch.Add(time.Duration(r.Int64N(int64(24 * time.Hour))))
			rows = append(rows, keyspace.Row{
				Key:   fmt.Sprintf("device_%03d#%019d", d, int64(math.MaxInt64)-at.UnixMilli()),
				Cells: []keyspace.Cell{cellAt("m", "reading", at, 64)},
			})
		}
	}
	return rows
}

// celebrityHandle is the hot user of the celebrity scenario.
const celebrityHandle = "mila_rosewood"

// celebrityRows: a social feed "user#<handle>#<millis>" over 7 days where
// one user has 38 % of the rows, most of her recent ones in the last day.
func celebrityRows() []keyspace.Row {
	r := newRand("celebrity")
	const events, users = 20_000, 1_500
	celebrity := events * 38 / 100
	names := []string{"ada", "ben", "cora", "dev", "eli", "fay", "gus", "hana", "ivo", "jon", "kai", "lea", "max",
		"nia", "otto", "pia", "quin", "rosa", "sam", "tia", "uma", "vic", "wes", "xia", "yan", "zoe"}
	window := 7 * 24 * time.Hour
	var rows []keyspace.Row
	add := func(handle string, at time.Time) {
		rows = append(rows, keyspace.Row{
			Key:   fmt.Sprintf("user#%s#%013d", handle, at.UnixMilli()),
			Cells: []keyspace.Cell{cellAt("e", "json", at, 120+r.Int64N(200))},
		})
	}
	for i := range celebrity {
		at := epoch.Add(time.Duration(r.Int64N(int64(window - 24*time.Hour))))
		if i < celebrity*45/100 {
			at = epoch.Add(window - 24*time.Hour + time.Duration(r.Int64N(int64(24*time.Hour))))
		}
		add(celebrityHandle, at)
	}
	for range events - celebrity {
		u := int(math.Pow(r.Float64(), 1.6) * users) // mild skew
		add(fmt.Sprintf("%s_%04d", names[u%len(names)], u), epoch.Add(time.Duration(r.Int64N(int64(window)))))
	}
	return rows
}

// largeRowKey is the oversized row of the large-row scenario.
const largeRowKey = "media#studio_ingest#raw-cam04-20261030"

// largeRowRows: "media#<owner>#<hex id>" assets of about 2 KB and one row
// of 120 MB (120 cells of 1 MB).
func largeRowRows() []keyspace.Row {
	r := newRand("large-row")
	owners := []string{"archive", "brand_team", "finance_team", "marketing", "product", "social", "studio_ingest", "support"}
	var rows []keyspace.Row
	for range 10_000 {
		at := epoch.Add(time.Duration(r.Int64N(int64(72 * time.Hour))))
		rows = append(rows, keyspace.Row{
			Key:   fmt.Sprintf("media#%s#%08x", owners[r.IntN(len(owners))], r.Uint32()),
			Cells: []keyspace.Cell{cellAt("meta", "json", at, 300), cellAt("blob", "thumb", at, 512+r.Int64N(1536))},
		})
	}
	big := keyspace.Row{Key: largeRowKey}
	at := epoch.Add(30 * time.Hour)
	for i := range 120 {
		big.Cells = append(big.Cells, cellAt("blob", fmt.Sprintf("chunk%03d", i), at.Add(time.Duration(i)*time.Second), 1<<20))
	}
	return append(rows, big)
}

// hashedRows: "<16 hex of a hash>#order", written over a week: an even,
// meaningless spread.
func hashedRows() []keyspace.Row {
	r := newRand("hashed")
	rows := make([]keyspace.Row, 12_000)
	for i := range rows {
		h := fnv.New64a()
		fmt.Fprintf(h, "order:%d", i)
		at := epoch.Add(time.Duration(r.Int64N(int64(7 * 24 * time.Hour))))
		rows[i] = keyspace.Row{Key: fmt.Sprintf("%016x#order", h.Sum64()), Cells: []keyspace.Cell{cellAt("doc", "json", at, 400)}}
	}
	return rows
}

// buildSnapshot sorts rows by key as a scan returns them, derives an
// emulator-like tablet map (a boundary every rowsPerRange rows) and builds
// the snapshot.
func buildSnapshot(tb testing.TB, table string, rows []keyspace.Row, opts keyspace.Options) *keyspace.Snapshot {
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
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true, Started: epoch},
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

// scenarioSnapshot builds the named scenario's snapshot.
func scenarioSnapshot(tb testing.TB, name string) *keyspace.Snapshot {
	tb.Helper()
	for _, s := range scenarios() {
		if s.name == name {
			return buildSnapshot(tb, s.name, s.rows(), keyspace.Options{})
		}
	}
	tb.Fatalf("no scenario %q", name)
	return nil
}
