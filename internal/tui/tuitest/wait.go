package tuitest

import "time"

// ScanWait is how long a test of the built btviz waits for a demo table's
// scan to complete. A full scan of phone-device-day (20,000 rows) takes
// 4 s on 2 idle cores and 9 s beside three busy loops; CI's slow tier,
// where the tmux tests run beside the sampler's statistical tests, once
// took over a minute (its first read at 257 rows/s), which failed a run.
// (It is not in tmux.go, whose exported constants are the strings the
// TUI shows: see TestTuitestStringsAreAllChecked.)
const ScanWait = 3 * time.Minute
