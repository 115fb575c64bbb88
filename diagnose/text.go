package diagnose

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/btviz/btviz/keyspace"
)

// The helpers below format numbers for summaries: plain ASCII, so that a
// summary is safe in a terminal, JSON and Markdown alike.

// percent writes a share (0–1) as a percentage: "38%", "0.4%".
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

// count writes an estimated count rounded to an integer with thousands
// separators: "30,000".
func count(n float64) string {
	return groupThousands(int64(math.Round(n)))
}

func groupThousands(n int64) string {
	digits := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return sign + b.String()
}

// byteSize writes a size in decimal units, as the guide states its limits:
// "125.8 MB", "4.1 kB", "812 B".
func byteSize(n float64) string {
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

// span writes a duration given in microseconds, to two significant units:
// "20.8 h", "15 s", "3.5 d".
func span(micros int64) string {
	d := time.Duration(micros) * time.Microsecond
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.1f d", d.Hours()/24)
	case d >= 2*time.Hour:
		return fmt.Sprintf("%.1f h", d.Hours())
	case d >= 2*time.Minute:
		return fmt.Sprintf("%.1f min", d.Minutes())
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	}
	return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
}

// ordinal names segment i (from 0) for a human: "the first segment".
func ordinal(i int) string {
	names := []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"}
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%dth", i+1)
}

// quoteKey escapes a key for a summary.
func quoteKey(key string) string {
	if key == "" {
		return `""`
	}
	return printable(key)
}

// maxSummaryKeyBytes is how much of a key a summary shows; a longer key
// (say a 5 KB one) is cut and its length given.
const maxSummaryKeyBytes = 64

// printable escapes a key for a summary with [keyspace.Printable], cutting
// keys longer than [maxSummaryKeyBytes].
func printable(key string) string {
	if len(key) <= maxSummaryKeyBytes {
		return keyspace.Printable(key)
	}
	return keyspace.Printable(key[:maxSummaryKeyBytes]) + "... (" + groupThousands(int64(len(key))) + " bytes)"
}
