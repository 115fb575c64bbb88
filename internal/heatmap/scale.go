package heatmap

import (
	"fmt"
	"math"
	"strconv"

	"github.com/btviz/btviz/internal/units"
)

// ScaleKind names how values map to colour intensity. The names are
// stable: they are the values of btviz's scale flag.
type ScaleKind string

const (
	// ScaleLinear maps values proportionally: hotspots stand out, the
	// rest goes dark.
	ScaleLinear ScaleKind = "linear"
	// ScaleLog maps orders of magnitude evenly: structure in cold ranges
	// shows next to a hotspot.
	ScaleLog ScaleKind = "log"
)

// ScaleKinds returns every scale kind.
func ScaleKinds() []ScaleKind { return []ScaleKind{ScaleLinear, ScaleLog} }

// ParseScale returns the scale kind named name. Its error lists the valid
// names and wraps [ErrUnknownName].
func ParseScale(name string) (ScaleKind, error) {
	for _, k := range ScaleKinds() {
		if string(k) == name {
			return k, nil
		}
	}
	return "", fmt.Errorf("%w: scale %q; valid scales are %s", ErrUnknownName, name, units.OrList(ScaleKinds()))
}

// Brightness bounds and step: [Scale.Brighter] and [Scale.Dimmer] move by
// BrightnessStep within [MinBrightness, MaxBrightness].
const (
	DefaultBrightness = 1.0
	BrightnessStep    = math.Sqrt2
	MinBrightness     = 1.0 / 64
	MaxBrightness     = 64.0
)

// logDynamicRange caps how many orders of magnitude a log scale spans, so
// that one tiny value does not wash out everything else.
const logDynamicRange = 1e6

// Scale is the user's choice of value mapping: linear or log, and a
// brightness factor, as Key Visualizer's +/- keys set it. A brightness b
// multiplies every value before mapping, so values above max/b saturate.
// The zero value is a linear scale at brightness 1.
type Scale struct {
	Kind       ScaleKind
	Brightness float64
}

// Brighter returns the scale one brightness step up.
func (s Scale) Brighter() Scale {
	s.Brightness = min(s.brightness()*BrightnessStep, MaxBrightness)
	return s
}

// Dimmer returns the scale one brightness step down.
func (s Scale) Dimmer() Scale {
	s.Brightness = max(s.brightness()/BrightnessStep, MinBrightness)
	return s
}

func (s Scale) brightness() float64 {
	if s.Brightness <= 0 {
		return DefaultBrightness
	}
	return s.Brightness
}

// String names the scale as legends show it: "linear", "log ×1.41".
func (s Scale) String() string {
	kind := s.Kind
	if kind != ScaleLog {
		kind = ScaleLinear
	}
	if b := s.brightness(); b != DefaultBrightness {
		return string(kind) + " ×" + strconv.FormatFloat(b, 'g', 3, 64)
	}
	return string(kind)
}

// Fit returns the mapping of the scale for the matrix's values.
//
// For a count, the log scale's bottom is at least one: a column's value
// can be a fraction of a cell (a time-grid bucket spread over two
// columns), and "0.03 cells" is no count a reader can use; smaller values
// are drawn at the bottom's colour.
func (s Scale) Fit(m *Matrix) Mapping {
	lo := m.MinPositive
	if m.View.Metric.Unit() == UnitCount && m.Max >= 1 {
		lo = max(lo, 1)
	}
	return s.FitRange(lo, m.Max)
}

// FitRange returns the mapping of the scale for values whose smallest
// positive value is lo and largest hi.
func (s Scale) FitRange(lo, hi float64) Mapping {
	b := s.brightness()
	kind := s.Kind
	if kind != ScaleLog {
		kind = ScaleLinear
	}
	if hi <= 0 {
		hi = 1
	}
	lo = max(lo, hi/logDynamicRange)
	if lo <= 0 || lo > hi {
		lo = hi
	}
	return Mapping{Kind: kind, Lo: lo / b, Hi: hi / b, Brightness: b}
}

// Mapping is a [Scale] fitted to data: it turns a value into an intensity
// in [0, 1]. Lo and Hi are the values at the bottom (log scale) and top of
// the colour ramp, after brightness.
type Mapping struct {
	Kind       ScaleKind
	Lo, Hi     float64
	Brightness float64
}

// Intensity returns v's place on the ramp: 0 for v ≤ 0, otherwise a value
// in (0, 1], 1 from Hi up.
func (m Mapping) Intensity(v float64) float64 {
	if v <= 0 || math.IsNaN(v) {
		return 0
	}
	if v >= m.Hi {
		return 1
	}
	if m.Kind == ScaleLog {
		if m.Hi <= m.Lo {
			return 1
		}
		t := math.Log(v/m.Lo) / math.Log(m.Hi/m.Lo)
		return max(t, math.SmallestNonzeroFloat64)
	}
	return v / m.Hi
}

// ValueAt returns the value whose intensity is t: the inverse of
// [Mapping.Intensity], for legend labels.
func (m Mapping) ValueAt(t float64) float64 {
	t = min(max(t, 0), 1)
	if m.Kind == ScaleLog {
		if t == 0 {
			return m.Lo
		}
		return m.Lo * math.Pow(m.Hi/m.Lo, t)
	}
	return m.Hi * t
}
