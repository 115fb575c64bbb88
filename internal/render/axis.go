package render

import (
	"strconv"
	"time"

	"github.com/btviz/btviz/internal/heatmap"
)

// timeTick is one labelled mark on a time axis, at frac ∈ [0, 1) of its
// length.
type timeTick struct {
	at    time.Time
	frac  float64
	label string
}

// tickStep is a spacing of time ticks: a fixed duration below a month,
// whole calendar months (12 and more: whole years) above.
type tickStep struct {
	d      time.Duration
	months int64
}

// Calendar lengths for choosing a step; ticks themselves fall on real
// month and year starts.
const (
	day          = 24 * time.Hour
	monthSeconds = heatmap.MonthSeconds
)

// seconds returns the step's length, months averaged.
func (s tickStep) seconds() float64 {
	if s.months > 0 {
		return float64(s.months) * monthSeconds
	}
	return s.d.Seconds()
}

// durationSteps are the candidate spacings below a month, finest first.
var durationSteps = []time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
	50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	day, 2 * day, 7 * day, 14 * day,
}

// monthSteps are the candidate spacings in months below ten years; above
// them, steps go on 1-2-5 in years (20, 50, 100, … years).
var monthSteps = []int64{1, 3, 6, 12, 24, 60, 120}

// maxYearStep ends the search for a step: no axis of cell timestamps
// (int64 microseconds, ±292,000 years) needs one longer.
const maxYearStep = 1_000_000_000

// nextStep returns the step after s in the candidate order, or false
// past the longest.
func nextStep(s tickStep) (tickStep, bool) {
	if s.months == 0 {
		for i, d := range durationSteps {
			if d == s.d && i+1 < len(durationSteps) {
				return tickStep{d: durationSteps[i+1]}, true
			}
		}
		return tickStep{months: monthSteps[0]}, true
	}
	for i, m := range monthSteps {
		if m == s.months && i+1 < len(monthSteps) {
			return tickStep{months: monthSteps[i+1]}, true
		}
	}
	years := s.months / 12
	if years >= maxYearStep {
		return s, false
	}
	switch digit := years / pow10Below(years); digit {
	case 1, 5:
		years *= 2
	default:
		years = years / 2 * 5
	}
	return tickStep{months: years * 12}, true
}

// pow10Below returns the largest power of ten not above n (n ≥ 1).
func pow10Below(n int64) int64 {
	p := int64(1)
	for p*10 <= n {
		p *= 10
	}
	return p
}

// tickLayout returns the layout tick labels use at a step: the year for
// steps of years, month and year for months, the date for days, HH:MM for
// minutes and hours, seconds and milliseconds below that.
func tickLayout(step tickStep) string {
	switch {
	case step.months >= 12:
		return "2006"
	case step.months > 0:
		return "Jan 2006"
	case step.d >= day:
		return "Jan 2"
	case step.d >= time.Minute:
		return "15:04" // midnight ticks show the date, "Jan 2"
	case step.d >= time.Second:
		return "15:04:05"
	}
	return "04:05.000"
}

// labelWidth returns the widest label a step gives on an axis ending at
// end, in characters ("Jan 2" and midnight dates are at most 6, a year
// as wide as the axis's last one).
func labelWidth(step tickStep, end time.Time) int {
	switch layout := tickLayout(step); layout {
	case "2006":
		return max(4, len(strconv.Itoa(end.Year())))
	case "Jan 2006":
		return 4 + max(4, len(strconv.Itoa(end.Year())))
	case "Jan 2", "15:04":
		return 6
	default:
		return len(layout)
	}
}

// timeTicks places ticks along an axis extent units long (cells or
// pixels) where a character is charWidth units wide: the finest step
// whose labels do not crowd each other, at round times in loc. Its work
// is bounded by the number of labels that fit, whatever the axis spans:
// from a millisecond to the ±292,000 years of cell timestamps.
func timeTicks(axis heatmap.TimeAxis, extent, charWidth float64, loc *time.Location) []timeTick {
	span := axis.SpanSeconds()
	if span <= 0 || extent <= 0 || charWidth <= 0 {
		return nil
	}
	if loc == nil {
		loc = time.UTC
	}
	roomy := func(step tickStep) bool {
		return step.seconds()/span*extent >= float64(labelWidth(step, axis.End.In(loc))+2)*charWidth
	}
	step := tickStep{d: durationSteps[0]}
	for !roomy(step) {
		next, ok := nextStep(step)
		if !ok {
			return nil
		}
		step = next
	}
	layout := tickLayout(step)
	// Labels fit, so at most extent/charWidth of them: a bound on the
	// loop that no arithmetic surprise on a strange axis can lift.
	maxTicks := int(extent/charWidth) + 2
	var ticks []timeTick
	for t := firstTick(axis.Start.In(loc), step); t.Before(axis.End) && len(ticks) < maxTicks; t = nextTick(t, step) {
		frac := heatmap.SecondsBetween(axis.Start, t) / span
		if frac < 0 || frac >= 1 {
			continue
		}
		label := t.Format(layout)
		if step.months == 0 && step.d < day && step.d >= time.Minute && t.Hour() == 0 && t.Minute() == 0 {
			label = t.Format("Jan 2")
		}
		ticks = append(ticks, timeTick{at: t, frac: frac, label: label})
	}
	return ticks
}

// firstTick returns the first round time at or after t for step: the
// start of a month or year whose number is a multiple of the step, a
// midnight for steps of days, a multiple of step in t's zone otherwise.
// It works on calendar fields and durations, never on nanoseconds since
// 1970, which overflow outside the years 1678–2262.
func firstTick(t time.Time, step tickStep) time.Time {
	if step.months > 0 {
		months := int64(t.Year())*12 + int64(t.Month()) - 1
		ceil := months / step.months // rounds toward zero: up below zero
		if months%step.months > 0 {
			ceil++
		}
		months = ceil * step.months
		tick := time.Date(int(months/12), time.Month(months%12+1), 1, 0, 0, 0, 0, t.Location())
		for tick.Before(t) {
			tick = nextTick(tick, step)
		}
		return tick
	}
	if step.d >= day {
		midnight := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
		if midnight.Before(t) {
			midnight = midnight.AddDate(0, 0, 1)
		}
		return midnight
	}
	// Round in t's zone: shift by its offset, truncate, shift back.
	_, offset := t.Zone()
	shift := time.Duration(offset) * time.Second
	rounded := t.Add(shift).Truncate(step.d).Add(-shift)
	if rounded.Before(t) {
		rounded = rounded.Add(step.d)
	}
	return rounded
}

func nextTick(t time.Time, step tickStep) time.Time {
	switch {
	case step.months > 0:
		return t.AddDate(int(step.months/12), int(step.months%12), 0)
	case step.d >= day:
		return t.AddDate(0, 0, int(step.d/day))
	}
	return t.Add(step.d)
}

func locationOr(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}
