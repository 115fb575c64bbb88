//go:build slow

package main

import (
	"regexp"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/testkit/emutest"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// TestE2ETerminalScanSaysWhatItWillRead runs `btviz --emulator --table
// social-celebrity --sample 0.05` in tmux against an emulator holding the
// table, once behind internal/emulator/cloudlike (SampleRowKeys answers 20
// tablets, as Cloud Bigtable would) and once plain (row samples): the
// details pane says what the scan planned to read, in how many tablets
// or key ranges, how, and what it read; the status line sets the rows
// planned against the rows read.
func TestE2ETerminalScanSaysWhatItWillRead(t *testing.T) {
	btviz, _ := buildBinaries(t)
	for _, tt := range []struct {
		name   string
		server []grpc.ServerOption
		ranges string
		how    string
	}{
		{"cloud-like", cloudlike.ServerOptions(cloudlike.Layout{Tablets: 20}, &cloudlike.Counter{}), `in 20 tablets`, `a 5% sample at positions inside tablets`},
		{"plain", nil, `in \d+ key ranges`, `a 5% sample`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target := emutest.Seed(t, "social-celebrity", tt.server...)
			term := tuitest.Start(t, tuitest.Options{Width: 160, Height: 50, Dir: t.TempDir(), Env: []string{
				connect.EmulatorHostEnv + "=" + target.EmulatorHost, "HOME=" + t.TempDir(),
			}}, btviz, "--emulator", "--table", "social-celebrity", "--sample", "0.05")
			for _, want := range []*regexp.Regexp{
				regexp.MustCompile(`This scan`),
				regexp.MustCompile(`planned  about [0-9,]+ rows \(`),
				regexp.MustCompile(tt.ranges),
				regexp.MustCompile(`read     [0-9,]+ rows \(.+\) in `),
				regexp.MustCompile(`how      ` + tt.how),
				regexp.MustCompile(`read [0-9.K]+ rows, .* · planned about [0-9,]+ rows, read [0-9,]+`), // the status line
			} {
				term.WaitUntil(t, time.Minute, want.String(), want.MatchString)
			}
			term.Send("q")
			term.WaitExit(t, 10*time.Second)
		})
	}
}
