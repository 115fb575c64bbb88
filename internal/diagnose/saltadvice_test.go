package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// feedSnapshot builds a feed where user#star# holds 40% of events, written
// over the last two thirds of the time span, so that it takes half of the
// newest writes; with posts, each event key carries the post it is about
// before its time.
func feedSnapshot(t *testing.T, posts bool) *keyspace.Snapshot {
	t.Helper()
	b := keyspace.NewBuilder(&keyspace.Snapshot{Families: []string{"e"}}, keyspace.Options{Delimiters: "#"})
	add := func(user string, i int) {
		key := fmt.Sprintf("user#%s#%013d", user, 1_700_000_000_000+int64(i))
		if posts {
			key = fmt.Sprintf("user#%s#p%04d#%013d", user, i%200, 1_700_000_000_000+int64(i))
		}
		b.Add(&keyspace.Row{Key: key, Weight: 1, Cells: []keyspace.Cell{{Family: "e", Qualifier: "x", Timestamp: int64(i) * 1000, ValueBytes: 50}}})
	}
	for i := range 4000 {
		add("star", 2000+i)
	}
	for u := range 100 {
		for i := range 60 {
			add(fmt.Sprintf("u%03d", u), u*60+i)
		}
	}
	return b.Snapshot()
}

func TestHotAdviceKeepsSeriesTogetherWhenTheyVary(t *testing.T) {
	cases := []struct {
		posts bool
		want  string
	}{
		{posts: true, want: "what-if salt(8, prefix=3)"},
		{posts: false, want: "Hash the whole key, timestamp included"},
	}
	for _, tc := range cases {
		var hot *Finding
		for _, f := range Diagnose(feedSnapshot(t, tc.posts)) {
			if f.Kind == KindHotKeyRange {
				hot = &f
			}
		}
		if hot == nil || hot.Prefix != "user#star#" {
			t.Fatalf("posts=%v: no hot-key-range at user#star#: %+v", tc.posts, hot)
		}
		if !strings.Contains(hot.Advice, tc.want) {
			t.Errorf("posts=%v: advice lacks %q:\n%s", tc.posts, tc.want, hot.Advice)
		}
	}
}

// TestWholeKeyAdviceNamesATimestampOnlyWhenThereIsOne: acct#<8 digits>
// has no time field, so the advice to hash the whole key says nothing of
// a timestamp or a series; a feed keyed by time says to hash the
// timestamp too (TestHotAdviceKeepsSeriesTogetherWhenTheyVary).
func TestWholeKeyAdviceNamesATimestampOnlyWhenThereIsOne(t *testing.T) {
	hot := findingOf(t, Diagnose(scenarioSnapshot(t, "accounts-hot-tenth")), KindHotKeyRange)
	if !strings.Contains(hot.Advice, "hash(key) mod") || !strings.Contains(hot.Advice, "Hash the whole key") {
		t.Fatalf("accounts-hot-tenth: advice does not salt by the whole key:\n%s", hot.Advice)
	}
	for _, word := range []string{"timestamp", "series"} {
		if strings.Contains(hot.Advice, word) {
			t.Errorf("accounts-hot-tenth keys acct#<8 digits> hold no time, yet the advice speaks of a %s:\n%s", word, hot.Advice)
		}
	}
}
