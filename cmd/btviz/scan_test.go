package main

import (
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestScanSummarySaysHowLongAsEveryOutput: the scan command's summary
// writes the scan's duration as the TUI's status line and the reports do
// ("1.2s", not "1.235s").
func TestScanSummarySaysHowLongAsEveryOutput(t *testing.T) {
	snap := &keyspace.Snapshot{Table: "events", Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Complete: true, RowsRead: 10, Duration: 1234567 * time.Microsecond}}
	if got := describeScan(snap); !strings.Contains(got, ", 1.2s, complete") {
		t.Errorf("describeScan = %q, want the duration as 1.2s", got)
	}
}
