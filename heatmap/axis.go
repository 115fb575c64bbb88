package heatmap

import (
	"time"
)

// timeTick is one labelled mark on a time axis, at frac ∈ [0, 1) of its
// length.
type timeTick struct {
	at    time.Time
	frac  float64
	label string
}

// tickSteps are the candidate spacings of time ticks, finest first.
func tickSteps() []time.Duration {
	const day = 24 * time.Hour
	return []time.Duration{
		time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
		time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
		day, 2 * day, 7 * day, 14 * day, 28 * day, 91 * day, 182 * day, 364 * day,
	}
}

// tickFormat returns the layout tick labels use at a step and the widest
// label it gives, in characters: dates for days, HH:MM for minutes and
// hours, seconds and milliseconds below that.
func tickFormat(step time.Duration) (layout string, width int) {
	switch {
	case step >= 24*time.Hour:
		return "Jan 2", 6
	case step >= time.Minute:
		return "15:04", 6 // midnight ticks show the date, "Jan 2"
	case step >= time.Second:
		return "15:04:05", 8
	}
	return "04:05.000", 9
}

// timeTicks places ticks along an axis extent units long (cells or
// pixels) where a character is charWidth units wide: the finest step
// whose labels do not crowd each other, at round times in loc.
func timeTicks(axis TimeAxis, extent, charWidth float64, loc *time.Location) []timeTick {
	span := axis.Span()
	if span <= 0 || extent <= 0 {
		return nil
	}
	if loc == nil {
		loc = time.UTC
	}
	roomy := func(step time.Duration) bool {
		_, width := tickFormat(step)
		return float64(step)/float64(span)*extent >= float64(width+2)*charWidth
	}
	steps := tickSteps()
	step := steps[len(steps)-1]
	for _, s := range steps {
		if roomy(s) {
			step = s
			break
		}
	}
	for !roomy(step) { // spans of decades: keep doubling the longest step
		step *= 2
	}
	layout, _ := tickFormat(step)
	var ticks []timeTick
	for t := firstTick(axis.Start.In(loc), step); t.Before(axis.End); t = nextTick(t, step) {
		frac := float64(t.Sub(axis.Start)) / float64(span)
		if frac < 0 || frac >= 1 {
			continue
		}
		label := t.Format(layout)
		if step < 24*time.Hour && step >= time.Minute && t.Hour() == 0 && t.Minute() == 0 {
			label = t.Format("Jan 2")
		}
		ticks = append(ticks, timeTick{at: t, frac: frac, label: label})
	}
	return ticks
}

// firstTick returns the first round time at or after t for step: a
// midnight for steps of days, a multiple of step in t's zone otherwise.
func firstTick(t time.Time, step time.Duration) time.Time {
	if step >= 24*time.Hour {
		midnight := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
		if midnight.Before(t) {
			midnight = midnight.AddDate(0, 0, 1)
		}
		return midnight
	}
	_, offset := t.Zone()
	local := t.UnixNano() + int64(offset)*int64(time.Second)
	rounded := (local + int64(step) - 1) / int64(step) * int64(step)
	if local < 0 && local%int64(step) != 0 {
		rounded = local / int64(step) * int64(step)
	}
	return time.Unix(0, rounded-int64(offset)*int64(time.Second)).In(t.Location())
}

func nextTick(t time.Time, step time.Duration) time.Time {
	if step >= 24*time.Hour {
		return t.AddDate(0, 0, int(step/(24*time.Hour)))
	}
	return t.Add(step)
}

func locationOr(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}
