package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/bug"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
)

// Messages the commands of this file return. Each scan has an id so that
// messages of a scan the program has moved on from are recognised.
type (
	// tablesMsg carries the table list.
	tablesMsg struct {
		tables []source.TableInfo
		err    error
	}
	// sizesMsg carries table sizes.
	sizesMsg struct {
		sizes map[string]int64
		err   error
	}
	// loadMsg is one background load event; ch is re-read for the next.
	loadMsg struct {
		event source.LoadProgress
		ch    <-chan source.LoadProgress
	}
	// loadsDoneMsg says background loading has ended.
	loadsDoneMsg struct{}
	// scanStartedMsg hands the program a started scan's event channel.
	scanStartedMsg struct {
		id     int
		events <-chan tea.Msg
	}
	// scanProgressMsg is a progress event of scan id.
	scanProgressMsg struct {
		id       int
		progress source.Progress
		events   <-chan tea.Msg
	}
	// scanPreviewMsg is what scan id is about to read, stated before it
	// reads (see [source.Preview]).
	scanPreviewMsg struct {
		id      int
		preview source.Preview
		events  <-chan tea.Msg
	}
	// scanDoneMsg ends scan id with its snapshot (partial when err wraps
	// source.ErrIncomplete) or an error.
	scanDoneMsg struct {
		id       int
		snapshot *keyspace.Snapshot
		err      error
	}
	// findingsMsg carries the findings of diagnosis gen.
	findingsMsg struct {
		gen      int
		findings []diagnose.Finding
	}
)

// listTablesCmd lists the backend's tables.
func listTablesCmd(ctx context.Context, b source.Source) tea.Cmd {
	return func() tea.Msg {
		tables, err := b.ListTables(ctx)
		return tablesMsg{tables: tables, err: err}
	}
}

// tableSizesCmd asks the backend for the named tables' sizes.
func tableSizesCmd(ctx context.Context, b source.Source, names []string) tea.Cmd {
	if len(names) == 0 {
		return nil
	}
	return func() tea.Msg {
		sizes, err := b.TableSizes(ctx, names)
		return orBug(sizesMsg{sizes: sizes, err: err}, err)
	}
}

// waitLoadCmd waits for the next background load event.
func waitLoadCmd(ch <-chan source.LoadProgress) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		event, ok := <-ch
		if !ok {
			return loadsDoneMsg{}
		}
		return orBug(loadMsg{event: event, ch: ch}, event.Err)
	}
}

// scanCmd starts scan id of table (or of a range within it) in a goroutine of its own and returns
// its event channel. scanCtx stops the scan; appCtx bounds how long the
// final message waits for the program to read it.
func scanCmd(scanCtx, appCtx context.Context, b source.Source, id int, table string, within *source.Range) tea.Cmd {
	return func() tea.Msg {
		events := make(chan tea.Msg, 1)
		var watch source.Watch
		watch.Preview = func(p source.Preview) {
			select {
			case events <- scanPreviewMsg{id: id, preview: p, events: events}:
			case <-scanCtx.Done():
			}
		}
		watch.Progress = func(p source.Progress) {
			if p.Final {
				// The done message carries the final snapshot; the
				// final counters stay, to set against the preview.
				p.Snapshot = nil
			}
			select {
			case events <- scanProgressMsg{id: id, progress: p, events: events}:
			case <-scanCtx.Done():
			}
		}
		go func() {
			defer close(events)
			done := scanGuarded(func() (*keyspace.Snapshot, error) {
				return b.Scan(scanCtx, table, within, watch)
			}, id)
			select {
			case events <- done:
			case <-appCtx.Done():
			}
		}()
		return scanStartedMsg{id: id, events: events}
	}
}

// scanGuarded runs scan and returns its done message; a panic in it, or
// a scan that failed with one recovered in its own goroutines, is a bug
// and ends the view ([panicMsg]).
func scanGuarded(scan func() (*keyspace.Snapshot, error), id int) (done tea.Msg) {
	defer func() {
		if err := bug.Recovered(recover()); err != nil {
			done = panicMsg{err}
		}
	}()
	snap, err := scan()
	return orBug(scanDoneMsg{id: id, snapshot: snap, err: err}, err)
}

// waitScanCmd waits for a scan's next event.
func waitScanCmd(events <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-events
		if !ok {
			return nil
		}
		return msg
	}
}

// diagnoseCmd runs the diagnostics on snap (pure, but not free on a large
// snapshot, so off the update loop).
func diagnoseCmd(gen int, snap *keyspace.Snapshot) tea.Cmd {
	return func() tea.Msg {
		return findingsMsg{gen: gen, findings: diagnose.Diagnose(snap)}
	}
}
