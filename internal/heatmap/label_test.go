package heatmap

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

func TestLabelTimeReadsOnlyWholeTimeSegments(t *testing.T) {
	tests := []struct{ raw, key, want string }{
		{"1793404832385", "1793404832385#machine_0042", "2026-10-31 00:00:32Z"},
		{"machine_42#9223370243449943422", "machine_42#9223370243449943422", "rev 2026-10-31 00:00:32Z"},
		// Cut short: 10 of 13 digits would read as epoch seconds.
		{"1793404832", "1793404832385#machine_0042", ""},
		{"phone#4c410523#20200501", "phone#4c410523#20200501", "2020-05-01"},
		{"user#mila_rosewood#p000012", "user#mila_rosewood#p000012#x", ""},
	}
	for _, tt := range tests {
		if got := labelTime(tt.raw, tt.key, "#"); got != tt.want {
			t.Errorf("labelTime(%q, %q) = %q, want %q", tt.raw, tt.key, got, tt.want)
		}
	}
}

func TestTimedLabelMakesRoomForTheTime(t *testing.T) {
	m := &Matrix{Buckets: []Bucket{{ShortLabel: "…1793404832385", LabelTime: "2026-10-31 00:00:32Z"}}}
	for _, tt := range []struct {
		width int
		want  string
	}{
		{40, "…1793404832385 2026-10-31 00:00:32Z"},
		{30, "…1793404832385 10-31 00:00:32"},
		{20, "…179340… 10-31 00:00"},
		{17, "…179… 10-31 00:00"},
		{12, "…1793404832…"},
	} {
		if got := m.TimedLabels(tt.width)[0]; got != tt.want {
			t.Errorf("TimedLabel(%d) = %q, want %q", tt.width, got, tt.want)
		}
	}
}

// TestBoundTextsEscapeAsTheLabels: a binary key reads the same in a
// bucket's label and in its range as the details write it ([Matrix.
// BoundTexts]): where the labels write every byte as \xNN, so does the
// range ("\x0c\x13\x82\x65", not "\x0c\x13\x82e").
func TestBoundTextsEscapeAsTheLabels(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	var rows []keyspace.Row
	for i := range 3000 {
		// Packed sensor ids: four random bytes, printable or not, and a
		// big-endian sequence number.
		key := []byte{byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), 0, 0, byte(i >> 8), byte(i)}
		rows = append(rows, keyspace.Row{Key: string(key), Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch.Add(time.Duration(i)*time.Minute), 10)}})
	}
	snap := heatmaptest.BuildSnapshot(t, "binary", rows, keyspace.Options{DelimitersDecided: true})
	m := mustBuild(t, snap, View{Bucketing: BucketEven, Rows: 40, Columns: 10})
	hexed := 0
	for b := 1; b < len(m.Buckets); b++ {
		start, _ := m.BoundTexts(b)
		if !strings.HasPrefix(start, m.Buckets[b].Label) {
			t.Errorf("bucket %d: the range starts %q, the label is %q", b, start, m.Buckets[b].Label)
		}
		if _, end := m.BoundTexts(b - 1); end != start {
			t.Errorf("bucket %d ends at %q, bucket %d starts at %q", b-1, end, b, start)
		}
		if m.Buckets[b].HexFrom >= 0 {
			hexed++
		}
	}
	if hexed == 0 {
		t.Fatalf("no label of the binary table writes its bytes as \\xNN: %v", m.FitFullLabels(40))
	}
}
