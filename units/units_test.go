package units

import (
	"math"
	"testing"
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
