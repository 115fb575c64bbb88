package view

import (
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestKeyWithTimeShortensTheTimeBeforeDroppingIt: the time beside a key
// is shortened, then dropped, as the width shrinks; the key is never cut
// to make room for it (the details pane writes the time), only when it
// does not fit alone, and then its last segment stays whole.
func TestKeyWithTimeShortensTheTimeBeforeDroppingIt(t *testing.T) {
	key := keyspace.Key("machine_1032405#9223370243367285445")
	for _, tt := range []struct {
		width int
		want  string
	}{
		{80, "machine_1032405#9223370243367285445 (reversed: 2026-10-31 22:"},
		{62, "machine_1032405#9223370243367285445 (reversed: 10-31 22:"},
		{44, "machine_1032405#9223370243367285445"},
		{30, "machine_1…#9223370243367285445"},
		{10, "machine"},
	} {
		got := keyWithTime(key, "#", tt.width)
		if !strings.Contains(got, tt.want) || len([]rune(got)) > tt.width {
			t.Errorf("keyWithTime(%d) = %q, want it within the width and holding %q", tt.width, got, tt.want)
		}
	}
	if got := keyWithTime(key, "#", 10); strings.Contains(got, "(") {
		t.Errorf("keyWithTime(10) = %q: no room for a time", got)
	}
}
