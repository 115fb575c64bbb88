package main

import (
	"os"
	"testing"

	"github.com/btviz/btviz/internal/sampler"
)

func TestProgressBarIsSilentOffTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "progress")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	newProgressBar(f).update(sampler.Progress{RangesTotal: 3, Final: true})
	if info, _ := f.Stat(); info.Size() != 0 {
		t.Fatalf("the bar wrote %d bytes to a file", info.Size())
	}
}
