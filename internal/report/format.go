package report

import (
	"time"
)

// timestamp writes a scan start in RFC 3339, or "" for the zero time.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
