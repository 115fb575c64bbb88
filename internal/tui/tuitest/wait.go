package tuitest

import (
	"os"
	"strconv"
	"time"
)

// waitSlack multiplies the timeout of every wait for a screen (WaitFor,
// WaitUntil, WaitExit). A test gives what a screen needs on two idle
// cores, with room to spare; CI's slow tier runs the tmux tests beside
// the sampler's statistical tests, and there a full scan of
// phone-device-day (20,000 rows: 4 s alone, 9 s beside three busy loops)
// once took over a minute, and `btviz open` of the large snapshot once
// showed no heatmap within a minute: each failed a run. A wait ends as
// soon as its screen shows, so the slack costs a passing test nothing;
// tests that bound how long something takes measure it themselves (as
// TestSIGINTStopsOpenWithinASecond does). $BTVIZ_WAIT_SLACK sets it.
func waitSlack() float64 {
	if s, err := strconv.ParseFloat(os.Getenv("BTVIZ_WAIT_SLACK"), 64); err == nil && s >= 1 {
		return s
	}
	return 3
}

// slack returns timeout times waitSlack.
func slack(timeout time.Duration) time.Duration {
	return time.Duration(float64(timeout) * waitSlack())
}
