package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// count writes an estimate rounded to an integer with thousands
// separators: "30,000".
func count(n float64) string { return thousands(round(n)) }

// round rounds an estimated count to the integer reports print.
func round(n float64) int64 {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0
	}
	return int64(math.Round(n))
}

func thousands(n int64) string {
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

// bytesText writes a size in decimal units: "125.8 MB".
func bytesText(n float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB"}
	i := 0
	for math.Abs(n) >= 1000 && i < len(units)-1 {
		n /= 1000
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f %s", n, units[i])
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}

// percent writes a share as a percentage: "38%", "5.3%", "0.04%".
func percent(share float64) string {
	p := share * 100
	switch {
	case p >= 10 || p == 0:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 1:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.2f%%", p)
}

// number writes an evidence value: integers with separators, fractions
// with up to four decimals.
func number(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return thousands(int64(v))
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// duration writes a scan's duration: "1.5 s", "2m3s".
func duration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// timestamp writes a scan start in RFC 3339, or "" for the zero time.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
