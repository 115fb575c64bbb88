package sampler

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A tablet cut into pieces puts each piece's rows on its own part of the
// line, as long as its share of the rows: the keys between the pieces
// (after one prefix's last row, before the next one's first) get none.
func TestTabletLinePlacesPiecesByRows(t *testing.T) {
	// The map a scan learns: the pilot's first rows, the tablet
	// boundaries.
	keys := &keyMap{}
	for id := range pilotRows {
		keys.learnBytes(fmt.Sprintf("acct#%07d", id))
	}
	for id := 37625; id < 555554; id += 37561 {
		keys.learn(fmt.Sprintf("acct#%07d", id))
	}
	keys.learn("cart#0007863", "cart#0045537", "evnt#0065259", "user#0240335")
	keys.judge()
	free := keys.allFree()
	var line tabletLine
	for _, p := range []struct {
		prefix      string
		first, last int
	}{{"acct", 526138, 555554}, {"cart", 0, 7862}} {
		key := func(id int) string { return fmt.Sprintf("%s#%07d", p.prefix, id) }
		pc := piece{first: key(p.first), last: key(p.last)}
		for id := p.first; id < p.first+probeRows; id++ {
			pc.head = append(pc.head, key(id))
		}
		for id := p.last - probeRows + 1; id <= p.last; id++ {
			pc.tail = append(pc.tail, key(id))
		}
		pc.line = free.segmentOf(pc.first, pc.last+"\x00")
		pc.rows = pc.estimateRows()
		line.pieces = append(line.pieces, pc)
	}
	line.place()
	for h, want := range []float64{555554 - 526138 + 1, 7863} {
		if got := line.pieces[h].rows; got < 0.9*want || got > 1.1*want {
			t.Errorf("piece %d: %.0f rows estimated, want about %.0f", h, got, want)
		}
	}
	if share := line.cum[1]; share < 0.75 || share > 0.83 {
		t.Errorf("acct's share of the line is %.3f, want about 0.79", share)
	}
	// Keys in order on the line; the gap between the prefixes is one point.
	prev := -1.0
	for _, key := range []string{"acct#0526138", "acct#0540000", "acct#0555554", "b", "cart#0000000", "cart#0004000", "cart#0007862"} {
		u := line.share(key)
		if u < prev {
			t.Errorf("share(%q) = %.4f, below the key before (%.4f)", key, u, prev)
		}
		prev = u
	}
	if a, b := line.share("acct#0555554"), line.share("cart#0000000"); b-a > 0.001 {
		t.Errorf("the keys between the prefixes take %.4f of the line", b-a)
	}
	// at lands in the piece its share belongs to.
	for _, c := range []struct {
		u      float64
		prefix string
	}{{0.1, "acct#05"}, {0.7, "acct#05"}, {0.85, "cart#000"}, {0.99, "cart#000"}} {
		if key := line.at(c.u); len(key) < len(c.prefix) || key[:len(c.prefix)] != c.prefix {
			t.Errorf("at(%.2f) = %q, want a key starting %q", c.u, key, c.prefix)
		}
	}
}

// The least key shaped like a tablet's end key, after its first segment:
// where fixed-width ids of that prefix start.
func TestLeastLike(t *testing.T) {
	want := map[string]string{
		"geo#0010273":  "geo#0000000",
		"user#ab12-Zq": "user#aa00-Aa",
		"x#":           "x#",
	}
	for key, least := range want {
		if got := leastLike(key, strings.IndexByte(key, '#')+1); got != least {
			t.Errorf("leastLike(%q) = %q, want %q", key, got, least)
		}
	}
}

// The windows a tablet's first piece is read back in, for its last rows,
// step back from its estimated end, each twice as wide, and end with one
// that starts at the piece's first row: also where the line's start lies
// above that row (the key map's precision runs out on long keys, such as
// e-mail addresses), where they used to shrink to one empty window read
// again for ever (a sampled scan of pii-login-keys spun for 14 minutes).
func TestBackWindowsEndAtThePiecesFirstRow(t *testing.T) {
	even := func(u float64) string { return fmt.Sprintf("k%07.0f", u*1e6) }
	// A line whose keys below 0.4 all round to one key above the first
	// row: from 0.37 back, the windows stop moving.
	stuck := func(u float64) string { return max(even(u), "k0400000") }
	for _, c := range []struct {
		name        string
		at          func(float64) string
		end, margin float64
		want        int // windows, the last from the first row
	}{
		{"an even line", even, 0.9, 0.05, 6},                    // from 0.85, 0.8, 0.7, 0.5, 0.1, the first row
		{"its start above the first row", stuck, 0.45, 0.01, 5}, // 0.44, 0.43, 0.41, 0.4 (for 0.37), the first row
		{"an end past the line", even, 2, 0.05, 1},
		{"an end of NaN", even, math.NaN(), 0.05, 1},
	} {
		const first = "k0000100"
		var windows [][2]string
		for from, to := range backWindows(c.at, first, "k1000000", c.end, c.margin) {
			windows = append(windows, [2]string{from, to})
			if len(windows) > 100 {
				break
			}
		}
		if len(windows) != c.want {
			t.Errorf("%s: %d windows %q, want %d", c.name, len(windows), windows, c.want)
			continue
		}
		to := "k1000000"
		for i, w := range windows {
			if w[1] != to || w[0] >= w[1] {
				t.Errorf("%s: window %d is %q after one starting at %q", c.name, i, w, to)
			}
			to = w[0]
		}
		if last := windows[len(windows)-1]; last[0] != first {
			t.Errorf("%s: the last window %q does not start at the first row %q", c.name, last, first)
		}
	}
}
