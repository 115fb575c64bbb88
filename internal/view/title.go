package view

import (
	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/keyspace"
)

// ScreenshotTitle is the title bar of a screenshot of state on snap:
// "btviz — table — view/metric — prefix" ([artifact.Title]), the view
// named as `btviz export --view` names it and the metric left out for a
// main area that shows no buckets (the largest rows).
func ScreenshotTitle(snap *keyspace.Snapshot, state ViewState) string {
	state = state.Normalized(snap)
	table := ""
	if snap != nil {
		table = snap.Table
	}
	what := string(state.Shown())
	if paneOf(state.Main).showsBuckets() {
		what += "/" + string(state.Metric)
	}
	return artifact.Title(table, what, string(state.Prefix))
}
