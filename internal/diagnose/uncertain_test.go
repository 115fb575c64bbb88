package diagnose

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// sampledRow is one row a test sample read: its key, when it was first
// written and how many versions of its one column it keeps.
type sampledRow struct {
	key      string
	at       int64
	versions int
}

// sampleOf builds the snapshot of a row sample that kept one row in
// weight: each row given stands for weight rows of the table, and the
// scan's 95% intervals are a row sample's (Horvitz–Thompson, Σ w(w−1)y²),
// as the sampler makes them.
func sampleOf(rows []sampledRow, delimiters string, weight float64) *keyspace.Snapshot {
	b := keyspace.NewBuilder(&keyspace.Snapshot{Source: keyspace.SourceBigtable, Table: "t", Families: []string{"f"},
		Scan: keyspace.ScanInfo{Mode: keyspace.ModeSample, Fraction: 1 / weight, ValuesRead: true, Complete: true}},
		keyspace.Options{Delimiters: delimiters, DelimitersDecided: true, Seed: 1})
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	var bytesSquared float64
	for _, row := range rows {
		versions := max(row.versions, 1)
		cells := make([]keyspace.Cell, versions)
		for v := range cells {
			cells[v] = keyspace.Cell{Family: "f", Qualifier: "q", Timestamp: start + row.at*1_000_000 + int64(v), ValueBytes: 20}
		}
		size := float64(len(row.key) + versions*(20+1+1+8))
		bytesSquared += size * size
		b.Add(&keyspace.Row{Key: row.key, Weight: weight, Cells: cells})
	}
	snap := b.Snapshot()
	spread := func(estimate, variance float64) (int64, int64, int64) {
		half := 1.96 * math.Sqrt(variance)
		return int64(estimate), int64(max(0, estimate-half)), int64(math.Ceil(estimate + half))
	}
	scan := &snap.Scan
	scan.RowsRead = int64(len(rows))
	scan.RowsEstimated, scan.RowsEstimatedLow, scan.RowsEstimatedHigh = spread(snap.Root.Rows, float64(len(rows))*weight*(weight-1))
	scan.BytesEstimated, scan.BytesEstimatedLow, scan.BytesEstimatedHigh = spread(snap.Root.Bytes, bytesSquared*weight*(weight-1))
	return snap
}

// keysOf returns n sampled rows, the i-th keyed key(i), written at i.
func keysOf(n int, key func(i int) string) []sampledRow {
	rows := make([]sampledRow, n)
	for i := range rows {
		rows[i] = sampledRow{key: key(i), at: int64(i), versions: 1}
	}
	return rows
}

// marked returns the finding of kind in snap's diagnosis and whether it
// says it is uncertain, checking that the summary and the structured
// field agree, and that the sample gave metric its interval.
func marked(t *testing.T, snap *keyspace.Snapshot, kind Kind, metric string) (Finding, bool) {
	t.Helper()
	f := findingOf(t, Diagnose(snap), kind)
	if said := strings.Contains(f.Summary, "(uncertain: the 95% interval of"); said != f.Uncertain {
		t.Errorf("%s: the summary and Uncertain (%v) disagree: %s", kind, f.Uncertain, f.Summary)
	}
	value, low, high := f.Evidence[metric], f.Evidence[metric+"_low"], f.Evidence[metric+"_high"]
	if !(low <= value && value <= high && low < high) {
		t.Errorf("%s: %s %v is not inside its interval [%v, %v]", kind, metric, value, low, high)
	}
	return f, f.Uncertain
}

// siblingsSample: 20 users under user#, one holding hotShare of 2,000
// sampled rows that each stand for 10, its writes spread over the time
// span as everyone's, so that it takes about hotShare of the recent
// writes too.
func siblingsSample(hotShare float64) *keyspace.Snapshot {
	hot := int(hotShare * 2000)
	rows := keysOf(2000, func(i int) string {
		if i < hot {
			return fmt.Sprintf("user#mila#%05d", i)
		}
		return fmt.Sprintf("user#u%02d#%05d", i%19, i)
	})
	for i := range rows {
		rows[i].at = int64(i*7919) % 2000
	}
	return sampleOf(rows, "#", 10)
}

// rangeSample: one dataset, k#, whose keys split at their first byte into
// k#a…, k#b…, k#c… and k#d… (too few for the sibling rule); k#b… holds 5%
// of 2,000 sampled rows, each rewritten versions times, the others one
// version a row.
func rangeSample(versions int) *keyspace.Snapshot {
	rows := keysOf(2000, func(i int) string {
		switch {
		case i < 100:
			return fmt.Sprintf("k#b%05d", i)
		default:
			return fmt.Sprintf("k#%c%05d", "acd"[i%3], i)
		}
	})
	for i := range 100 {
		rows[i].versions = versions
	}
	return sampleOf(rows, "#", 10)
}

// marchSample: 200 sampled keys k00000…, written in key order, the i-th
// late by (i·7919 mod jitter) rows' time: the larger jitter, the weaker
// key order follows write time.
func marchSample(jitter int) *keyspace.Snapshot {
	rows := keysOf(200, func(i int) string { return fmt.Sprintf("k#%05d", i*37) })
	for i := range rows {
		rows[i].at = int64(i + (i*7919)%jitter)
	}
	return sampleOf(rows, "#", 50)
}

// mixSample: 200 sampled keys, the first n of which odd(i) writes and the
// rest plain user#<i> keys.
func mixSample(n int, odd func(i int) string) *keyspace.Snapshot {
	return sampleOf(keysOf(200, func(i int) string {
		if i < n {
			return odd(i)
		}
		return fmt.Sprintf("user#%05d", i*7)
	}), "#", 50)
}

// scannedSample joins siblingsSample's table (2,000 sampled rows standing
// for 20,000, ±4% at 95%) with a recording of five scans of the whole
// table that each read share of its estimated rows.
func scannedSample(t *testing.T, share float64) *keyspace.Snapshot {
	t.Helper()
	scans := record(t, func(add func(keyspace.Op)) {
		for s := range 5 {
			op := keyspace.Op{Time: at(s * 1000), Method: keyspace.MethodReadRows, Ranges: []keyspace.KeyRange{{}}}
			for i := range int(share * 20_000) {
				op.RowsRead = append(op.RowsRead, keyspace.RowIO{Key: keyspace.Key(fmt.Sprintf("user#u%02d#%05d", i%19, i)), Bytes: 50})
			}
			add(op)
		}
	})
	storage := siblingsSample(0.4)
	storage.Source = scans.Source
	joined, err := keyspace.Join(storage, scans)
	if err != nil {
		t.Fatal(err)
	}
	return joined
}

// A finding raised by a number a sample estimates says it is uncertain
// when the number's 95% interval holds its threshold, and only then: each
// kind with an estimated trigger, from a snapshot near the threshold and
// one clear of it.
func TestEstimatedTriggersNearTheirThresholdAreUncertain(t *testing.T) {
	timestamp := func(i int) string {
		return "user#" + time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Minute).Format("2006-01-02T15:04:05") + "#" + fmt.Sprint(i)
	}
	for _, tc := range []struct {
		name        string
		kind        Kind
		metric      string
		near, clear *keyspace.Snapshot
	}{
		{"hot prefix by recent writes", KindHotKeyRange, "recent_write_share", siblingsSample(0.27), siblingsSample(0.45)},
		{"hot range by writes", KindHotKeyRange, "write_share", rangeSample(7), rangeSample(20)},
		{"sequential keys", KindSequentialKeys, "rank_correlation", marchSample(150), marchSample(10)},
		{"sequential numeric ID", KindSequentialNumericID, "rank_correlation", marchSample(150), marchSample(10)},
		{"timestamp first", KindKeyStartsWithTimestamp, "timestamp_share", mixSample(184, timestamp), mixSample(200, timestamp)},
		{"binary keys", KindBinaryKey, "binary_key_share", mixSample(3, func(i int) string { return fmt.Sprintf("user#\x00\x01%c", i) }),
			mixSample(20, func(i int) string { return fmt.Sprintf("user#\x00\x01%c", i) })},
		{"PII in keys", KindPIIInKey, "keys_with_pii_share", mixSample(3, func(i int) string { return fmt.Sprintf("user#u%d@example.com", i) }),
			mixSample(20, func(i int) string { return fmt.Sprintf("user#u%d@example.com", i) })},
		{"forward domains", KindDomainNotReversed, "forward_host_share", mixSample(46, func(i int) string { return fmt.Sprintf("user#www.shop%d.com#p", i) }),
			mixSample(120, func(i int) string { return fmt.Sprintf("user#www.shop%d.com#p", i) })},
		{"heavy scan", KindHeavyScan, "table_share_per_scan", scannedSample(t, 0.51), scannedSample(t, 0.8)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f, uncertain := marked(t, tc.near, tc.kind, tc.metric); !uncertain {
				t.Errorf("near the threshold, not uncertain: %s %v", f.Summary, f.Evidence)
			}
			if f, uncertain := marked(t, tc.clear, tc.kind, tc.metric); uncertain {
				t.Errorf("clear of the threshold, uncertain: %s %v", f.Summary, f.Evidence)
			}
		})
	}
}

// A scan that read every row gives exact numbers: nothing is uncertain,
// however near its threshold.
func TestFullScansAreNeverUncertain(t *testing.T) {
	for _, snap := range []*keyspace.Snapshot{siblingsSample(0.26), rangeSample(7), marchSample(150)} {
		full := snap.Clone()
		full.Scan = keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, ValuesRead: true, Complete: true}
		full.Root.Rows = float64(len(full.Sample))
		for i := range full.Sample {
			full.Sample[i].Weight = 1
		}
		for _, f := range Diagnose(full) {
			if f.Uncertain || strings.Contains(f.Summary, "uncertain") {
				t.Errorf("full scan: %s %s", f.Kind, f.Summary)
			}
		}
	}
}

// A sampled hot-key-range gives its share of the recent writes, what
// raises it, a 95% interval; its shares of rows and bytes raise nothing
// (a hotspot is traffic, not size) and get none. The celebrity's 67% of
// the recent writes is clear of the 25% threshold, so it stands; a full
// scan has no intervals at all.
func TestHotRangeNearTheThresholdSaysSoWhenSampled(t *testing.T) {
	snap := scenarioSnapshot(t, "social-celebrity")
	full := findingOf(t, Diagnose(snap), KindHotKeyRange)
	if strings.Contains(full.Summary, "95%") || full.Evidence["recent_write_share_low"] != 0 || full.Uncertain {
		t.Fatalf("full scan: %s %v", full.Summary, full.Evidence)
	}
	rows := int64(snap.Root.Rows)
	sampled := snap.Clone()
	sampled.Scan.Mode, sampled.Scan.Fraction = keyspace.ModeSample, 0.5
	sampled.Scan.RowsRead, sampled.Scan.RowsEstimated = rows/2, rows
	sampled.Scan.RowsEstimatedLow, sampled.Scan.RowsEstimatedHigh = rows*9/10, rows*11/10
	for i := range sampled.Sample {
		sampled.Sample[i].Weight = 2 // each row read stands for two
	}
	f := findingOf(t, Diagnose(sampled), KindHotKeyRange)
	share, low, high := f.Evidence["recent_write_share"], f.Evidence["recent_write_share_low"], f.Evidence["recent_write_share_high"]
	if f.Uncertain || !(hotMinShare < low && low < share && share < high) {
		t.Errorf("sampled: %s (evidence %v), want the recent write share's interval, clear of %v", f.Summary, f.Evidence, hotMinShare)
	}
	if _, ok := f.Evidence["row_share_low"]; ok {
		t.Errorf("sampled: the share of rows, which raises nothing, has an interval: %v", f.Evidence)
	}
}
