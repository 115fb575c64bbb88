package heatmap

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/units"
)

func TestScalesMapValuesOntoTheRamp(t *testing.T) {
	linear := Scale{}.FitRange(1, 100)
	if linear.Intensity(0) != 0 || linear.Intensity(50) != 0.5 || linear.Intensity(100) != 1 || linear.Intensity(500) != 1 {
		t.Fatal("linear intensities")
	}
	log := Scale{Kind: ScaleLog}.FitRange(1, 100)
	if got := log.Intensity(10); math.Abs(got-0.5) > 1e-12 {
		t.Fatalf("log intensity of 10 in [1, 100] = %v", got)
	}
	if log.Intensity(1) <= 0 {
		t.Fatal("the smallest value must stay visible")
	}
	for _, m := range []Mapping{linear, log} {
		for _, v := range []float64{2, 10, 42, 99} {
			if back := m.ValueAt(m.Intensity(v)); math.Abs(back-v) > 1e-9*v {
				t.Fatalf("%s: ValueAt(Intensity(%v)) = %v", m.Kind, v, back)
			}
		}
	}
	bright := Scale{}.Brighter().Brighter().FitRange(1, 100)
	if math.Abs(bright.Intensity(50)-1) > 1e-9 || math.Abs(bright.Brightness-2) > 1e-9 {
		t.Fatalf("two steps brighter saturate at half the maximum: %+v", bright)
	}
	dim := Scale{}
	for range 100 {
		dim = dim.Dimmer()
	}
	if dim.Brightness != MinBrightness {
		t.Fatalf("brightness floor %v", dim.Brightness)
	}
}

func TestParsersListTheValidNames(t *testing.T) {
	for _, tc := range []struct {
		parse func(string) error
		valid []string
	}{
		{func(s string) error { _, err := ParseMetric(s); return err }, []string{"writes", "rows", "bytes", "versions", "max-row", "share", "write-share", "ops", "reads", "read-bytes", "write-bytes", "latency", "latency-max", "cpu"}},
		{func(s string) error { _, err := ParseBucketing(s); return err }, []string{"prefix", "even", "heat", "tablets"}},
		{func(s string) error { _, err := ParseScale(s); return err }, []string{"linear", "log"}},
	} {
		for _, name := range tc.valid {
			if err := tc.parse(name); err != nil {
				t.Errorf("%q: %v", name, err)
			}
		}
		err := tc.parse("bogus")
		if !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), units.OrList(tc.valid)) {
			t.Errorf("error %v should name the input and list %v", err, tc.valid)
		}
	}
}

func TestUnitsFormatShortValues(t *testing.T) {
	for _, tc := range []struct {
		unit Unit
		v    float64
		want string
	}{
		{UnitCount, 0, "0"}, {UnitCount, 7, "7"}, {UnitCount, 0.25, "0.25"}, {UnitCount, 1234, "1.23K"}, {UnitCount, 999_960, "1M"},
		{UnitCount, 20_000, "20K"}, {UnitBytes, 512, "512 B"}, {UnitBytes, 1536, "1.54 kB"}, {UnitBytes, 120 << 20, "126 MB"}, {UnitBytes, 120e6, "120 MB"},
		{UnitShare, 0.38, "38%"}, {UnitShare, 0.0052, "0.52%"}, {UnitShare, 0, "0%"}, {UnitRatio, 1.5, "1.5"},
	} {
		if got := tc.unit.Format(tc.v); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
