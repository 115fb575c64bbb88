//go:build slow

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

func TestE2ERecordStopsOnCtrlCAndKeepsEverything(t *testing.T) {
	host := seededOfficial(t)
	out := filepath.Join(t.TempDir(), "traffic.btviz")
	rec := startRecorder(t, host, out)
	// An application: a scan of the celebrity's rows through the proxy.
	report := btvizCommand(t, rec.addr, "report", "--table", "social-celebrity", "--prefix", "user#mila_rosewood#", "--format", "json")
	if output, err := report.CombinedOutput(); err != nil {
		t.Fatalf("btviz report through the proxy: %v\n%s", err, output)
	}
	rec.ctrlC(t)
	file, err := keyspace.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap := file.Recording.Table("social-celebrity")
	if !file.Recording.Complete || snap == nil {
		t.Fatalf("after Ctrl+C the recording is %+v; want it complete, with social-celebrity", file.Recording)
	}
	mila := snap.Root.Lookup("user#mila_rosewood#")
	if mila == nil || mila[len(mila)-1].Traffic.RowsRead != snap.Root.Traffic.RowsRead || snap.Root.Traffic.RowsRead < 7000 {
		t.Errorf("the scan of user#mila_rosewood# read %v of the table's %v rows read; want all of them, about 7,600",
			mila, snap.Root.Traffic.RowsRead)
	}
	if entries, err := os.ReadDir(filepath.Dir(out)); err != nil || len(entries) != 1 {
		t.Errorf("beside the recording: %v, %v; want the recording alone, no temporary file left", entries, err)
	}
}
