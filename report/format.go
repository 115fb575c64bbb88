package report

import (
	"fmt"
	"time"
)

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
