package keyspace

import (
	"strings"
	"time"

	"github.com/btviz/btviz/internal/units"
)

// Summary describes the snapshot's scan, or its traffic recording, in a
// few words: "emulator local/btviz · full scan · complete", for the
// interactive view's header and table list.
func (s *Snapshot) Summary() string {
	if s.HotTabletsOnly() {
		return strings.TrimSpace(string(s.HotTablets.Source)+" "+s.Project+"/"+s.Instance) + " · hot tablets alone, no scan · " +
			s.HotTablets.From.UTC().Format("2006-01-02 15:04") + " to " + s.HotTablets.To.UTC().Format("2006-01-02 15:04Z")
	}
	mode := s.Scan.ModeText()
	if s.Traffic != nil {
		recorded := "traffic recorded for " + units.Duration(s.Traffic.Duration.Round(time.Second))
		if s.Root == nil || s.Root.Rows == 0 {
			mode = recorded
		} else {
			mode += " + " + recorded
		}
	}
	if s.Scan.Start != "" || s.Scan.End != "" || s.Scan.Prefix != "" {
		mode += " of a key range"
	}
	state := "complete"
	if complete, why := s.Completeness(); !complete {
		state = "incomplete (" + why + ")"
	}
	source := string(s.Source)
	if s.Project != "" || s.Instance != "" {
		source += " " + s.Project + "/" + s.Instance
	}
	return strings.TrimSpace(source) + " · " + mode + " · " + state
}
