package units

import (
	"math"
	"testing"
	"time"
	"unicode/utf8"
)

func TestFormats(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{Count(30000), "30,000"},
		{Count(-1234567.4), "-1,234,567"},
		{Count(math.NaN()), "0"},
		{Short(950), "950"},
		{Short(12345), "12.3K"},
		{Short(4_500_000), "4.5M"},
		{Short(999_960), "1M"},
		{Short(0.25), "0.25"},
		{Bytes(812), "812 B"},
		{Bytes(4100), "4.1 kB"},
		{Bytes(2_540_000), "2.54 MB"},
		{Bytes(125_829_120), "126 MB"},
		{Bytes(12_582_912), "12.6 MB"},
		{Bytes(1e12), "1 TB"},
		{Percent(0.38), "38%"},
		{Percent(0.053), "5.3%"},
		{Percent(0.0004), "0.04%"},
		{Percent(0), "0%"},
		{Percent(0.05), "5%"},
		{Percent(0.005), "0.5%"},
		{Number(7600), "7,600"},
		{Number(0.38084), "0.3808"},
		{Number(84.2), "84.2"},
	}
	for i, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

func TestCountRange(t *testing.T) {
	for _, tc := range []struct {
		low, high float64
		want      string
	}{
		{1350, 1350, "1,350"},
		{1349.8, 1350.2, "1,350"},
		{1400, 1350, "1,350"},
		{1200, 1350, "1,200–1,350"},
		{0, 2, "0–2"},
	} {
		if got := CountRange(tc.low, tc.high); got != tc.want {
			t.Errorf("CountRange(%v, %v) = %q, want %q", tc.low, tc.high, got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{250 * time.Microsecond, "250µs"},
		{250 * time.Millisecond, "250ms"},
		{1500 * time.Millisecond, "1.5s"},
		{2 * time.Second, "2s"},
		{9960 * time.Millisecond, "10s"},
		{45 * time.Second, "45s"},
		{14997 * time.Millisecond, "15s"},
		{59*time.Second + 600*time.Millisecond, "1m"},
		{59*time.Minute + 59*time.Second + 600*time.Millisecond, "1h"},
		{time.Hour + 59*time.Minute + 45*time.Second, "2h"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1d"},
		{2*time.Hour + 52*time.Minute + 40*time.Second, "2h53m"},
		{7 * time.Minute, "7m"},
		{11*time.Minute + 15*time.Second, "11m15s"},
		{2*time.Hour + 52*time.Minute + 10*time.Second, "2h52m"},
		{7 * 24 * time.Hour, "7d"},
		{50 * time.Hour, "2d2h"},
		{200*365*24*time.Hour + 5*24*time.Hour, "200y5d"},
		{-3 * time.Second, "-3s"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestBar(t *testing.T) {
	for _, tc := range []struct {
		share float64
		cells int
		want  string
	}{
		{0, 4, "    "},
		{1, 4, "████"},
		{0.5, 4, "██  "},
		{0.001, 4, "▏   "},
		{2, 3, "███"},
		{-1, 3, "   "},
		{0.53, 2, "█ "},
		{0.3, 0, ""},
	} {
		got := Bar(tc.share, tc.cells)
		if got != tc.want {
			t.Errorf("Bar(%v, %d) = %q, want %q", tc.share, tc.cells, got, tc.want)
		}
		if w := utf8.RuneCountInString(got); w != tc.cells {
			t.Errorf("Bar(%v, %d) is %d cells", tc.share, tc.cells, w)
		}
	}
}

func TestLatency(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 400: "0.4µs", 850 * time.Microsecond: "850µs", 1250 * time.Microsecond: "1.25ms",
		42100 * time.Microsecond: "42.1ms", 999600 * time.Microsecond: "1s", 1500 * time.Millisecond: "1.5s",
	} {
		if got := Latency(d); got != want {
			t.Errorf("Latency(%v) = %q, want %q", d, got, want)
		}
	}
}
