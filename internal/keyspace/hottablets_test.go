package keyspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"
)

var hotStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// sample is one hot-tablet sample of a minute, minute minutes after
// hotStart.
func sample(cluster, start, end string, minute int, cpu float64) HotTablet {
	at := hotStart.Add(time.Duration(minute) * time.Minute)
	return HotTablet{Cluster: cluster, Table: "t", StartKey: Key(start), EndKey: Key(end), Start: at, End: at.Add(time.Minute), CPU: cpu}
}

func testHotTablets(tablets ...HotTablet) *HotTablets {
	return NewHotTablets(HotTablets{Source: HotTabletsBigtable, Project: "p", Instance: "i", Clusters: []string{"c1", "c2"},
		From: hotStart, To: hotStart.Add(24 * time.Hour), Tablets: tablets})
}

// cpuTotal returns a node's CPU in percent-minutes.
func cpuTotal(n *Node) float64 {
	if n == nil || n.CPU == nil {
		return 0
	}
	return n.CPU.Total()
}

func TestHotTabletCPUIsPlacedByTheRowsItCovers(t *testing.T) {
	snap := buildSnapshot(t, func(add func(string)) {
		for i := range 30 {
			add(fmt.Sprintf("user#a%03d", i))
		}
		for i := range 10 {
			add(fmt.Sprintf("user#b%03d", i))
		}
		add("user#c")
	})
	hot := testHotTablets(
		// [user#a000, user#b009]: holds a's 30 rows and b's 10.
		sample("c1", "user#a000", "user#b009", 0, 80), sample("c1", "user#a000", "user#b009", 15, 60),
		// A one-row tablet.
		sample("c1", "user#c", "user#c\x00", 30, 70),
		// Another cluster's, not drawn: c1 is the busier.
		sample("c2", "user#a000", "", 0, 10),
	)
	got := WithHotTablets(snap, hot)
	if got.HotTablets.Shown() != "c1" {
		t.Fatalf("shown cluster %q, want c1", got.HotTablets.Shown())
	}
	if want, root := 80.0+60+70, cpuTotal(got.Root); math.Abs(root-want) > 1e-9 {
		t.Fatalf("the root holds %v percent-minutes, want %v (c1's samples, a minute each)", root, want)
	}
	c := got.Root.Find("user#c")
	// The first tablet's 140 percent-minutes go to the 40 rows it holds,
	// in proportion: 3.5 a row.
	user := got.Root.Lookup("user#")
	if user == nil {
		t.Fatal("no user# node")
	}
	for _, child := range user[len(user)-1].Children {
		if child.LastKey >= "user#c" {
			continue
		}
		if want := 140 * child.Rows / 40; math.Abs(cpuTotal(child)-want) > 1e-6 {
			t.Errorf("%v (%v rows) holds %v percent-minutes, want %v", child.Prefix, child.Rows, cpuTotal(child), want)
		}
	}
	if got := cpuTotal(c[len(c)-1]); math.Abs(got-70) > 1e-9 {
		t.Errorf("the one-row tablet's row holds %v percent-minutes, want 70", got)
	}
	for _, tablet := range hot.Tablets {
		row, ok := tablet.OneRow()
		if one := tablet.StartKey == "user#c"; ok != one || one && row != "user#c" {
			t.Errorf("OneRow of %v = %q, %v", tablet, row, ok)
		}
	}
	// The source snapshot is unchanged.
	if snap.HotTablets != nil || snap.Root.CPU != nil {
		t.Error("WithHotTablets changed its input")
	}
}

func TestHotTabletsAloneHaveTheirOwnKeyAxis(t *testing.T) {
	hot := testHotTablets(
		sample("c1", "a", "m", 0, 60), sample("c1", "f", "f\x00", 1, 90), sample("c1", "q", "", 2, 55),
	)
	snap := HotTabletsSnapshot(hot, "t", SourceBigtable)
	if !snap.HotTabletsOnly() {
		t.Fatal("HotTabletsOnly is false")
	}
	var pieces []string
	for _, c := range snap.Root.Children {
		pieces = append(pieces, fmt.Sprintf("[%v,%v)=%.0f", c.Start, c.End, cpuTotal(c)))
	}
	// [a, m\x00) is cut at f and f\x00\x00: its 60 shared alike by 3.
	want := []string{`[,a)=0`, `[a,f)=20`, `[f,f\x00\x00)=110`, `[f\x00\x00,m\x00)=20`, `[q,)=55`}
	if !reflect.DeepEqual(pieces, want) {
		t.Errorf("pieces %v, want %v", pieces, want)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, snap); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.HotTablets, snap.HotTablets) || cpuTotal(back.Root) != cpuTotal(snap.Root) {
		t.Errorf("hot tablets did not survive the file")
	}
}

func TestSnapshotFileVersions(t *testing.T) {
	plain := testSnapshot(t)
	var buf bytes.Buffer
	if err := Encode(&buf, plain); err != nil {
		t.Fatal(err)
	}
	if v := fileVersion(t, buf.Bytes()); v != 1 {
		t.Errorf("a snapshot without hot tablets is written as version %d, want 1 (every btviz reads it)", v)
	}
	buf.Reset()
	with := WithHotTablets(plain, &HotTablets{Source: HotTabletsBigtable, Clusters: []string{"c1"}, From: hotStart, To: hotStart.Add(time.Hour),
		Tablets: []HotTablet{{Cluster: "c1", Table: plain.Table, StartKey: "dev", Start: hotStart, End: hotStart.Add(time.Minute), CPU: 75}}})
	if err := Encode(&buf, with); err != nil {
		t.Fatal(err)
	}
	if v := fileVersion(t, buf.Bytes()); v != 2 {
		t.Errorf("a snapshot with hot tablets is written as version %d, want 2", v)
	}
	back, err := Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if cpuTotal(back.Root) != 75 {
		t.Errorf("read back, the root holds %v percent-minutes, want 75", cpuTotal(back.Root))
	}
}

// fileVersion reads the version of an encoded file.
func fileVersion(t *testing.T, file []byte) int {
	t.Helper()
	zr, err := unzip(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(zr)
	var head struct{ Version int }
	if err := json.Unmarshal(buf.Bytes(), &head); err != nil {
		t.Fatal(err)
	}
	return head.Version
}

func TestDamagedHotTabletsAreRefused(t *testing.T) {
	for name, damage := range map[string]func(*HotTablets){
		"cpu over 100":     func(h *HotTablets) { h.Tablets[0].CPU = 101 },
		"end before start": func(h *HotTablets) { h.Tablets[0].EndKey = "a" },
		"unknown source":   func(h *HotTablets) { h.Source = "guess" },
		"time backwards":   func(h *HotTablets) { h.Tablets[0].End = h.Tablets[0].Start.Add(-time.Minute) },
	} {
		t.Run(name, func(t *testing.T) {
			snap := HotTabletsSnapshot(testHotTablets(sample("c1", "m", "q", 0, 60)), "t", SourceBigtable)
			damage(snap.HotTablets)
			var buf bytes.Buffer
			if err := Encode(&buf, snap); err != nil {
				t.Fatal(err)
			}
			_, err := Decode(&buf)
			var field *FieldError
			if !errors.Is(err, ErrDamaged) || !errors.As(err, &field) {
				t.Fatalf("Decode: %v, want a damaged-file error", err)
			}
		})
	}
}

func TestHotTabletGridFitsTheTimeAxis(t *testing.T) {
	for _, window := range []time.Duration{time.Hour, 24 * time.Hour, 48 * time.Hour, 14 * 24 * time.Hour} {
		h := &HotTablets{From: hotStart, To: hotStart.Add(window)}
		w := h.BucketMicros()
		if buckets := window.Microseconds() / w; buckets >= MaxTimeBuckets {
			t.Errorf("%v: %d buckets of %v", window, buckets, time.Duration(w)*time.Microsecond)
		}
		if window <= time.Hour && w != int64(time.Minute/time.Microsecond) {
			t.Errorf("%v: buckets of %v, want a minute", window, time.Duration(w)*time.Microsecond)
		}
	}
}
