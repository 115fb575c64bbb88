package session

import (
	"context"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/hottablets"
	"github.com/btviz/btviz/internal/keyspace"
)

// CloudHotTablets is the interactive view's door to Cloud Bigtable's hot
// tablets ([source.HotTablets]): ListHotTablets of Target's instance over
// the last Window, of Cluster only when it is set.
type CloudHotTablets struct {
	Target  connect.Target
	Window  time.Duration
	Cluster string
}

// HotTablets asks the instance admin API for table's hot tablets.
func (s *CloudHotTablets) HotTablets(ctx context.Context, table string, _ *keyspace.Snapshot) (*keyspace.HotTablets, error) {
	client, err := hottablets.Dial(ctx, s.Target)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	return client.Fetch(ctx, hottablets.Options{Window: s.Window, Cluster: s.Cluster, Table: table})
}

// Simulated is false: Cloud Bigtable's hot tablets are asked for once a
// table.
func (s *CloudHotTablets) Simulated() bool { return false }

// SimulatedHotTablets are the demo's hot tablets: computed from what the
// view shows of the recording ([hottablets.Simulate]).
type SimulatedHotTablets struct{}

// HotTablets simulates the hot tablets of what the view shows.
func (SimulatedHotTablets) HotTablets(_ context.Context, _ string, shown *keyspace.Snapshot) (*keyspace.HotTablets, error) {
	if shown == nil {
		return nil, nil
	}
	return hottablets.Simulate(shown, time.Now()), nil
}

// Simulated is true: they follow each look at the recording.
func (SimulatedHotTablets) Simulated() bool { return true }
