package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/session"
	"github.com/btviz/btviz/internal/view"
)

// plantedSource is a [source.HotTablets] of planted hot tablets.
type plantedSource struct {
	hot       *keyspace.HotTablets
	simulated bool
}

func (p plantedSource) HotTablets(context.Context, string, *keyspace.Snapshot) (*keyspace.HotTablets, error) {
	return p.hot, nil
}
func (p plantedSource) Simulated() bool { return p.simulated }

func plantedHot(table string, source keyspace.HotTabletSource) *keyspace.HotTablets {
	from := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var tablets []keyspace.HotTablet
	for i := range 8 {
		at := from.Add(time.Duration(15*i) * time.Minute)
		tablets = append(tablets, keyspace.HotTablet{Cluster: "c1", Table: table, StartKey: "user#mila_rosewood#", EndKey: "user#mila_rosewood#\xff",
			Start: at, End: at.Add(time.Minute), CPU: 81})
	}
	return keyspace.NewHotTablets(keyspace.HotTablets{Source: source, Clusters: []string{"c1"}, From: from, To: from.Add(24 * time.Hour), Tablets: tablets})
}

// The cpu view: hot tablets fetched when the table opens, on the scan's
// key axis, the cluster named, the celebrity's range the hottest, and the
// hot-tablet finding in the findings.
func TestCPUViewShowsTheHotTablets(t *testing.T) {
	storage := scenarioSnapshot(t, "social-celebrity")
	for _, source := range []keyspace.HotTabletSource{keyspace.HotTabletsBigtable, keyspace.HotTabletsSimulated} {
		t.Run(string(source), func(t *testing.T) {
			m := New(t.Context(), Config{Table: storage.Table, Source: session.NewSnapshotSource("test.btviz", storage),
				HotTablets: plantedSource{hot: plantedHot(storage.Table, source)}, Theme: view.ThemeDark, Profile: colorprofile.NoTTY})
			r := newRuntime(t, m)
			r.send(tea.WindowSizeMsg{Width: 160, Height: 48})
			r.run(m.Init())
			r.until(10*time.Second, "the scan and the hot tablets", func() bool {
				return m.hot != nil && m.levels[0].stored != nil && m.levels[0].snap.HasHotTablets()
			})
			for m.current().state.Normalized(m.levels[0].snap).Metric != heatmap.MetricCPU {
				r.press("m")
			}
			s := screen(m)
			want := []string{"node CPU % (cluster c1) by key and time", "8 hot-tablet samples · peak 81% · cluster c1", "hot tablets: one node's CPU of one cluster, one-minute samples (ListHotTablets)"}
			if source == keyspace.HotTabletsSimulated {
				want = []string{"simulated node CPU % (cluster c1)", "SIMULATED · 8 hot-tablet samples", "SIMULATED hot tablets: computed from the recorded operations, not Cloud Bigtable's"}
			}
			for _, w := range want {
				if !strings.Contains(s, w) {
					t.Errorf("the cpu view lacks %q:\n%s", w, s)
				}
			}
			b, best := 0, -1.0
			for i := range m.matrix.Buckets {
				if v := m.matrix.BucketTotal(i); v > best {
					b, best = i, v
				}
			}
			if !strings.Contains(m.matrix.Buckets[b].Label, "mila_rosewood") {
				t.Errorf("the hottest bucket is %s", m.matrix.Buckets[b].Label)
			}
			r.until(10*time.Second, "the hot-tablet finding", func() bool {
				for _, f := range m.findings {
					if f.Kind == "hot-tablet" {
						return true
					}
				}
				return false
			})
		})
	}
}
