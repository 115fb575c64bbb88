// Package units writes numbers for people — counts, sizes, shares,
// durations and bars — the same way in every btviz output, so that a
// report, a screenshot and the terminal never disagree about a table. Sizes use decimal SI units
// (kB = 1000 bytes), as the Bigtable limits btviz checks are stated
// (100 MB rows, 10 MB cells). Everything is plain ASCII but the SI
// prefixes, safe in a terminal, JSON and Markdown alike.
package units

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Count writes an estimated count rounded to an integer, with thousands
// separators: "30,000".
func Count(n float64) string { return Thousands(Round(n)) }

// Round rounds an estimated count to the integer outputs print (0 for
// NaN and infinities).
func Round(n float64) int64 {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0
	}
	return int64(math.Round(n))
}

// Thousands writes n with a comma every three digits: "-1,234,567".
func Thousands(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
	return sign + b.String()
}

// Short writes a count compactly, to three significant digits, for axes,
// legends and tight columns: "950", "12.3K", "4.5M".
func Short(n float64) string {
	if n == 0 {
		return "0"
	}
	if math.Abs(n) < 1000 {
		if n == math.Trunc(n) {
			return strconv.FormatFloat(n, 'f', 0, 64)
		}
		return trimZeros(strconv.FormatFloat(n, 'f', significant(n), 64))
	}
	return scaled(n, []string{"K", "M", "G", "T", "P"}, "")
}

// Bytes writes a size in decimal units to three significant digits:
// "812 B", "4.1 kB", "2.54 MB", "126 MB".
func Bytes(n float64) string {
	if math.Abs(n) < 1000 {
		return strconv.FormatFloat(math.Round(n), 'f', 0, 64) + " B"
	}
	return scaled(n, []string{"kB", "MB", "GB", "TB", "PB"}, " ")
}

// Percent writes a share (0–1) as a percentage: "38%", "5%", "5.3%",
// "0.04%".
func Percent(share float64) string {
	p := share * 100
	switch a := math.Abs(p); {
	case a >= 10 || a == 0:
		return strconv.FormatFloat(p, 'f', 0, 64) + "%"
	case a >= 1:
		return trimZeros(strconv.FormatFloat(p, 'f', 1, 64)) + "%"
	}
	return trimZeros(strconv.FormatFloat(p, 'f', 2, 64)) + "%"
}

// Number writes a measured value: an integer with thousands separators,
// a fraction with up to four decimals: "7,600", "0.3808".
func Number(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return Thousands(int64(v))
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 4, 64))
}

// scaled divides v by 1000 until it is below 1000 and writes it with
// three significant digits and the matching suffix.
func scaled(v float64, suffixes []string, sep string) string {
	i := -1
	for math.Abs(v) >= 1000 && i < len(suffixes)-1 {
		v /= 1000
		i++
	}
	// Rounding may carry to 1000 (999.96K): move up a unit then.
	if math.Abs(v) >= 999.5 && i < len(suffixes)-1 {
		v /= 1000
		i++
	}
	return trimZeros(strconv.FormatFloat(v, 'f', significant(v), 64)) + sep + suffixes[i]
}

// significant gives the decimals that show three significant digits of a
// value below 1000.
func significant(v float64) int {
	switch a := math.Abs(v); {
	case a >= 99.95:
		return 0
	case a >= 9.995:
		return 1
	}
	return 2
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Duration writes d with at most two units, the larger first: "250ms",
// "1.5s", "45s", "11m15s", "3h20m", "7d", "2y30d". Below ten seconds it
// keeps one decimal of a second, so a short scan reads the same in every
// output; from ten seconds on it rounds to the smaller unit it writes
// (14.99 s is "15s", 59m59.6s is "1h").
func Duration(d time.Duration) string {
	if d < 0 {
		return "-" + Duration(-d)
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d/time.Microsecond)
	case d < time.Second:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	case d < 10*time.Second:
		return trimZeros(strconv.FormatFloat(math.Round(d.Seconds()*10)/10, 'f', 1, 64)) + "s"
	}
	type unit struct {
		size time.Duration
		name string
	}
	steps := []unit{{year, "y"}, {day, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	// smallest is the unit d is rounded to when steps[i] is its largest.
	smallest := func(i int) time.Duration { return steps[min(i+1, len(steps)-1)].size }
	i := slices.IndexFunc(steps, func(u unit) bool { return d >= u.size })
	d = d.Round(smallest(i))
	if i > 0 && d >= steps[i-1].size { // the rounding carried: 59m59.6s is 1h
		i--
		d = d.Round(smallest(i))
	}
	whole := d / steps[i].size
	out := strconv.FormatInt(int64(whole), 10) + steps[i].name
	if i+1 < len(steps) {
		if rest := (d - whole*steps[i].size) / steps[i+1].size; rest > 0 {
			out += strconv.FormatInt(int64(rest), 10) + steps[i+1].name
		}
	}
	return out
}

// Latency writes a call's latency to three significant digits: "850µs",
// "1.25ms", "42.1ms", "1.5s"; below a microsecond, "0.4µs".
func Latency(d time.Duration) string {
	v := float64(d)
	switch a := math.Abs(v); {
	case a == 0:
		return "0s"
	case a < 1e3:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 2, 64)) + "µs"
	case a < 999.5e3:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', significant(v/1e3), 64)) + "µs"
	case a < 999.5e6:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', significant(v/1e6), 64)) + "ms"
	case a < 999.5e9:
		return trimZeros(strconv.FormatFloat(v/1e9, 'f', significant(v/1e9), 64)) + "s"
	}
	return Duration(d)
}

// day and year are the calendar-free units [Duration] writes.
const (
	day  = 24 * time.Hour
	year = 365 * day
)

// barEighths are the partial blocks that give a [Bar] 1/8-cell
// resolution.
var barEighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Bar draws share (clamped to 0–1) as a bar of exactly cells cells of
// full and eighth blocks, padded with spaces. A share above zero shows at
// least an eighth, so a small value never looks like none.
func Bar(share float64, cells int) string {
	if cells <= 0 {
		return ""
	}
	if math.IsNaN(share) {
		share = 0
	}
	share = min(max(share, 0), 1)
	eighths := int(math.Round(share * float64(cells*8)))
	if share > 0 && eighths == 0 {
		eighths = 1
	}
	full, part := eighths/8, eighths%8
	var b strings.Builder
	b.WriteString(strings.Repeat("█", full))
	used := full
	if part > 0 && used < cells {
		b.WriteString(barEighths[part])
		used++
	}
	b.WriteString(strings.Repeat(" ", cells-used))
	return b.String()
}

// CountRange writes a count known to lie between low and high, as a
// bounded counter gives it: "1,350" when the two round to one number,
// else "1,200–1,350".
func CountRange(low, high float64) string {
	if Round(low) >= Round(high) {
		return Count(high)
	}
	return Count(low) + "–" + Count(high)
}

// OrList writes names as a list for help texts and errors: "a", "a or
// b", "a, b or c".
func OrList[T ~string](names []T) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// Plural writes a count and a noun, with an s unless the count is 1:
// "1 scan", "12,345 scans".
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}
