package keytime

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

func TestDecodeReadsEveryTimeFormAndNothingElse(t *testing.T) {
	at := time.Date(2026, 10, 31, 0, 0, 32, 385_000_000, time.UTC)
	tests := []struct {
		field string
		kind  Kind
		want  string
	}{
		{"1793404832", Epoch, "2026-10-31 00:00:32Z"},
		{"1793404832385", Epoch, "2026-10-31 00:00:32Z"},
		{"1793404832385000", Epoch, "2026-10-31 00:00:32Z"},
		{"1793404832385000000", Epoch, "2026-10-31 00:00:32Z"},
		{fmt.Sprintf("%019d", int64(math.MaxInt64)-at.UnixMilli()), Reversed, "2026-10-31 00:00:32Z"},
		{fmt.Sprintf("%019d", int64(math.MaxInt64)-at.Unix()), Reversed, "2026-10-31 00:00:32Z"},
		{"20200501", Date, "2020-05-01"},
		{"2020050113", Date, "2020-05-01 13:00:00Z"},
		{"2026-10-31", Date, "2026-10-31"},
		{"2026-10-31T00:00:32Z", Date, "2026-10-31 00:00:32Z"},
		{"2026-10-31T02:00:32+02:00", Date, "2026-10-31 00:00:32Z"},
		// Not times: IDs of other widths, out of the plausible span, text.
		{"0000000042", None, ""},
		{"9999999999", None, ""},
		{"123456789012", None, ""},
		{"p000012", None, ""},
		{"", None, ""},
		{"2026-13-45", None, ""},
		{"12345678901234567890123", None, ""},
	}
	for _, tt := range tests {
		got, ok := Decode(tt.field)
		if ok != (tt.kind != None) || got.Kind != tt.kind {
			t.Errorf("Decode(%q) = %v, %v; want kind %v", tt.field, got, ok, tt.kind)
			continue
		}
		if ok && got.String() != tt.want {
			t.Errorf("Decode(%q) = %q, want %q", tt.field, got, tt.want)
		}
	}
	if got, _ := Decode("1793404832385"); !got.At.Equal(at) || got.PerSecond != 1000 {
		t.Errorf("milliseconds: %v per %d s, want %v per 1000", got.At, got.PerSecond, at)
	}
}

func TestInKeyFindsTheFirstTimeSegment(t *testing.T) {
	tests := []struct {
		key, delimiters, field string
		end                    int
		want                   string
	}{
		{"1793404832385#machine_0042", "#", "1793404832385", 13, "2026-10-31 00:00:32Z"},
		{"phone#4c410523#20200501", "#", "20200501", 23, "2020-05-01"},
		{"user#42#p000012", "#", "", 0, ""},
		{"1793404832385", "", "1793404832385", 13, "2026-10-31 00:00:32Z"},
		{"\x00\x07\x00\x1b", "", "", 0, ""},
	}
	for _, tt := range tests {
		field, end, got, ok := InKey(tt.key, tt.delimiters)
		if field != tt.field || end != tt.end || ok != (tt.want != "") || (ok && got.String() != tt.want) {
			t.Errorf("InKey(%q) = %q, %d, %v, %v; want %q, %d, %q", tt.key, field, end, got, ok, tt.field, tt.end, tt.want)
		}
	}
}

func TestFormsShortenATimeForNarrowColumns(t *testing.T) {
	for _, tt := range []struct {
		written string
		want    []string
	}{
		{"2026-10-31 00:00:32Z", []string{"2026-10-31 00:00:32Z", "10-31 00:00:32", "10-31 00:00"}},
		{"reversed: 2026-10-31 22:58:10Z", []string{"reversed: 2026-10-31 22:58:10Z", "reversed: 10-31 22:58:10", "reversed: 10-31 22:58"}},
		{"rev 2026-10-31 22:58:10Z", []string{"rev 2026-10-31 22:58:10Z", "rev 10-31 22:58:10", "rev 10-31 22:58"}},
		{"2020-05-01", []string{"2020-05-01"}},
		{"", nil},
	} {
		if got := Forms(tt.written); !slices.Equal(got, tt.want) {
			t.Errorf("Forms(%q) = %q, want %q", tt.written, got, tt.want)
		}
	}
}
