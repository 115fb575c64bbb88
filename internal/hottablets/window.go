package hottablets

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseWindow reads a window as --hot-tablets takes it: a Go duration
// ("90m", "24h", "36h30m") or a number of days ("14d", "1.5d").
func ParseWindow(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n <= 0 || n > 1e4 {
			return 0, fmt.Errorf("%q is not a number of days; give e.g. 1d, 7d or 14d", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a window; give a duration such as 90m, 24h or 14d", s)
	}
	return d, nil
}
