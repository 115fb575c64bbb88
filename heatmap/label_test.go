package heatmap

import "testing"

func TestLabelTimeReadsOnlyWholeTimeSegments(t *testing.T) {
	tests := []struct{ raw, key, want string }{
		{"1793404832385", "1793404832385#machine_0042", "2026-10-31 00:00:32Z"},
		{"machine_42#9223370243449943422", "machine_42#9223370243449943422", "rev 2026-10-31 00:00:32Z"},
		// Cut short: 10 of 13 digits would read as epoch seconds.
		{"1793404832", "1793404832385#machine_0042", ""},
		{"phone#4c410523#20200501", "phone#4c410523#20200501", "2020-05-01"},
		{"user#mila_rosewood#p000012", "user#mila_rosewood#p000012#x", ""},
	}
	for _, tt := range tests {
		if got := labelTime(tt.raw, tt.key, "#"); got != tt.want {
			t.Errorf("labelTime(%q, %q) = %q, want %q", tt.raw, tt.key, got, tt.want)
		}
	}
}

func TestTimedLabelMakesRoomForTheTime(t *testing.T) {
	m := &Matrix{Buckets: []Bucket{{ShortLabel: "…1793404832385", LabelTime: "2026-10-31 00:00:32Z"}}}
	for _, tt := range []struct {
		width int
		want  string
	}{
		{40, "…1793404832385 2026-10-31 00:00:32Z"},
		{30, "…1793404832385 10-31 00:00:32"},
		{20, "…179340… 10-31 00:00"},
		{17, "…179… 10-31 00:00"},
		{12, "…1793404832…"},
	} {
		if got := m.TimedLabels(tt.width)[0]; got != tt.want {
			t.Errorf("TimedLabel(%d) = %q, want %q", tt.width, got, tt.want)
		}
	}
}
