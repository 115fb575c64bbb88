package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/view"
)

// snapOf returns the snapshot level i shows: its own (the table's, or a
// range it re-read) or, for a plain drill-down, its nearest ancestor's.
func (m *Model) snapOf(i int) *keyspace.Snapshot {
	if i < 0 || i >= len(m.levels) {
		return nil
	}
	return m.levels[m.ownerOf(i)].snap
}

// ownerOf returns the index of the level whose snapshot level i shows.
func (m *Model) ownerOf(i int) int {
	for ; i > 0; i-- {
		if m.levels[i].rescan != nil {
			return i
		}
	}
	return 0
}

// push adds a drill-down level and shows it.
func (m *Model) push(lv level) *level {
	lv.id = m.newID()
	m.levels = append(m.levels, lv)
	m.rebuild()
	return m.current()
}

// scanBusy reports whether a scan of another level is running.
func (m *Model) scanBusy() bool { return m.scan != nil && m.scan.Running && m.cancelScan != nil }

// drill goes one level into the selected bucket: re-bucketing it from
// the snapshot, and re-reading its key range in full when the snapshot
// was sampled or holds nothing finer (on a live backend).
func (m *Model) drill() tea.Cmd {
	cur := m.current()
	if m.matrix == nil || len(m.matrix.Buckets) == 0 {
		return nil
	}
	snap := m.snapOf(len(m.levels) - 1)
	b := m.matrix.Buckets[view.ClampIndex(cur.state.Selected, len(m.matrix.Buckets))]
	live := m.backend != nil && m.backend.Live()
	sampled := snap != nil && snap.Scan.Mode.IsSample()
	rescan := live && (sampled || b.NeedsRescan())
	isRow := b.Node != nil && b.Node.Kind == keyspace.KindRow

	if isRow && m.showRow(b.Node.Prefix) {
		return nil
	}
	if !b.CanDrill() && !rescan {
		m.setMessage("nothing finer in this snapshot: drilling into "+view.Cut(view.RangeText(b.Start, b.End), 60)+" needs a live scan", false)
		return nil
	}
	if rescan && m.scanBusy() {
		rescan = false
		if !b.CanDrill() {
			m.setMessage("the table scan is still running; drill into this range when it is done", false)
			return nil
		}
		m.setMessage("drilled into the scan so far; r re-reads this range in full once the table scan is done", false)
	}
	next := cur.state.Child("", b.Start, b.End)
	if b.Node != nil && b.CanDrill() {
		next = cur.state.Child(b.Node.Prefix, "", "")
	}
	if isRow {
		next = next.Showing(view.PaneRows)
		next.RowColumns = true
	}
	lv := level{state: next}
	if rescan {
		lv.snap, lv.rescan = snap, &rescanRange{start: b.Start, end: b.End}
	}
	added := m.push(lv)
	if !rescan && live && !m.scanBusy() && m.holdsNothingFiner() {
		// The snapshot merged this range into a few units: read it again
		// at full resolution for a finer tree.
		added.snap, added.rescan = snap, &rescanRange{start: b.Start, end: b.End}
		rescan = true
	}
	if !rescan {
		return nil
	}
	return m.startScan(m.table, rangeOf(b.Start, b.End, snap), added.id, "re-reading "+view.Cut(view.RangeText(b.Start, b.End), 48)+" in full")
}

// minDrillBuckets is the fewest buckets a drill-down should show before
// it re-reads its range for more, however few rows its heatmap has.
const minDrillBuckets = 4

// holdsNothingFiner reports whether the current view fills less than
// half its heatmap's rows (or shows fewer than [minDrillBuckets]) while
// some bucket of several rows is one the snapshot cannot split: a run of
// siblings the tree merged, or a leaf its limits stopped at, which a
// full read of the range turns into prefixes of their own. A view of
// single rows has nothing finer to read.
func (m *Model) holdsNothingFiner() bool {
	if m.matrix == nil || len(m.matrix.Buckets) >= max(minDrillBuckets, m.matrix.View.Rows/2) {
		return false
	}
	for i := range m.matrix.Buckets {
		if b := &m.matrix.Buckets[i]; b.NeedsRescan() && b.Stats.Rows > 1 {
			return true
		}
	}
	return false
}

// showRow opens the largest-rows view on row key, when the snapshot
// lists it; it reports whether it did.
func (m *Model) showRow(key keyspace.Key) bool {
	cur := m.current()
	rows, _ := view.TopRows(m.snapOf(len(m.levels) - 1))
	for i, r := range rows {
		if r.Key == key {
			cur.state = cur.state.Showing(view.PaneRows)
			cur.state.SetLine(view.PaneRows, i)
			cur.state.RowColumns = true
			return true
		}
	}
	return false
}

// back goes one level up, keeping the view settings.
func (m *Model) back() {
	if len(m.levels) <= 1 {
		m.setMessage("at the top of the table; T picks another table", false)
		return
	}
	popped := m.levels[len(m.levels)-1]
	if popped.id == m.scanLevel && m.scanBusy() {
		m.stopScan()
	}
	m.levels = m.levels[:len(m.levels)-1]
	cur := m.current()
	cur.state.Metric, cur.state.Bucketing, cur.state.Scale = popped.state.Metric, popped.state.Bucketing, popped.state.Scale
	if !view.ShowsBuckets(cur.state.Main) {
		cur.state = cur.state.Showing(view.PaneHeatmap)
	}
	m.rebuild()
}

// jump shows key in context: its own prefix view when into is set and
// it is a prefix node, else the view above it with its bucket selected.
// It goes from the table's snapshot, as a new level (esc comes back).
func (m *Model) jump(key string, into bool) {
	if len(m.levels) == 0 || m.levels[0].snap == nil || m.levels[0].snap.Root == nil {
		m.setMessage("no data yet to search", true)
		return
	}
	cur := m.current()
	prefix, selectKey := jumpTarget(m.levels[0].snap.Root, key, into)
	next := cur.state.Child(prefix, "", "").Showing(view.PaneHeatmap)
	if cur.state.Prefix == prefix && !cur.state.IsRange() && m.ownerOf(len(m.levels)-1) == 0 {
		cur.state = cur.state.Showing(view.PaneHeatmap)
	} else {
		m.push(level{state: next})
	}
	if selectKey != "" {
		m.selectPrefix(selectKey)
	}
	if selectKey != "" && !m.hasKeysUnder(selectKey) {
		what := "no rows start with "
		if snap := m.snapOf(len(m.levels) - 1); snap.HasTraffic() {
			what = "no rows stored or keys recorded start with "
		}
		m.setMessage(what+view.Cut(keyspace.Printable(key), 60)+"; showing where they would be", false)
	}
}

// wideFindingShare is the share of the table's rows from which a
// finding's prefix is shown from inside (its children) rather than as one
// bucket among its siblings.
const wideFindingShare = 0.9

// showFinding shows where a finding points: a row it names with its
// columns and versions, a prefix as a bucket among its siblings (or from
// inside when it holds nearly the whole table), or the table for a
// table-wide finding.
func (m *Model) showFinding(fi diagnose.Finding) {
	if len(m.levels) == 0 || m.levels[0].snap == nil || m.levels[0].snap.Root == nil {
		return
	}
	root := m.levels[0].snap.Root
	if fi.Prefix == "" && fi.Dataset != "" && (fi.Start != "" || fi.End != "") {
		m.showRange(fi.Start, fi.End)
		m.setMessage("a finding about dataset "+escape.Text(fi.Dataset)+": it is about the keys of that dataset", false)
		return
	}
	if fi.Prefix == "" {
		m.jump(string(fi.Start), false)
		m.setMessage("a table-wide finding: it is about the keys of the whole table", false)
		return
	}
	if m.ownerOf(len(m.levels)-1) == 0 && m.showRow(fi.Prefix) {
		return
	}
	into := false
	if path := root.Lookup(string(fi.Prefix)); path != nil {
		n := path[len(path)-1]
		into = n.Kind == keyspace.KindPrefix && !n.IsLeaf() && root.Rows > 0 && n.Rows >= wideFindingShare*root.Rows
	}
	m.jump(string(fi.Prefix), into)
}

// selectPrefix selects the first bucket holding keys that start with
// prefix, or else the bucket where such keys would be.
func (m *Model) selectPrefix(prefix string) {
	m.selectKey(prefix)
	if m.matrix == nil || m.hasKeysUnder(prefix) {
		return
	}
	end := keyspace.PrefixEnd(prefix)
	cur := m.current()
	where := cur.state.Selected
	for i := where + 1; i < len(m.matrix.Buckets); i++ {
		if b := m.matrix.Buckets[i]; end != "" && string(b.Start) >= end {
			break
		}
		cur.state.Selected = i
		if m.hasKeysUnder(prefix) {
			return
		}
	}
	cur.state.Selected = where
}

// hasKeysUnder reports whether the selected bucket holds keys starting
// with prefix: stored rows, as far as its first and last keys tell, or
// recorded traffic ([keyspace.Node.HasTrafficIn]) in the part of its
// range under prefix.
func (m *Model) hasKeysUnder(prefix string) bool {
	cur := m.current()
	if m.matrix == nil || len(m.matrix.Buckets) == 0 {
		return false
	}
	b := m.matrix.Buckets[view.ClampIndex(cur.state.Selected, len(m.matrix.Buckets))]
	end := keyspace.PrefixEnd(prefix)
	if b.Stats.Rows > 0 && string(b.Stats.LastKey) >= prefix && (end == "" || string(b.Stats.FirstKey) < end) {
		return true
	}
	snap := m.snapOf(len(m.levels) - 1)
	if !snap.HasTraffic() || b.Traffic == (keyspace.OpCounts{}) {
		return false
	}
	start := max(string(b.Start), prefix)
	if b.End != "" && (end == "" || string(b.End) < end) {
		end = string(b.End)
	}
	return snap.Root.HasTrafficIn(start, end)
}

// goToPrefix shows the node with prefix, returning to a level that shows
// it when there is one (a breadcrumb click).
func (m *Model) goToPrefix(prefix keyspace.Key) {
	for i := len(m.levels) - 1; i >= 0; i-- {
		s := m.levels[i].state
		if s.Prefix == prefix && !s.IsRange() && m.ownerOf(i) == 0 {
			if i == len(m.levels)-1 {
				return
			}
			settings := m.current().state
			m.levels = m.levels[:i+1]
			cur := m.current()
			cur.state.Metric, cur.state.Bucketing, cur.state.Scale = settings.Metric, settings.Bucketing, settings.Scale
			if m.scanBusy() && m.levelByID(m.scanLevel) == nil {
				m.stopScan()
			}
			m.rebuild()
			return
		}
	}
	m.push(level{state: m.current().state.Child(prefix, "", "")})
}

// rescan reads the current level's data again: the table, or the key
// range the level re-read.
func (m *Model) rescan() tea.Cmd {
	if m.backend == nil || !m.backend.Live() {
		m.setMessage("a saved snapshot cannot be re-read; run btviz against the instance for a fresh scan", false)
		return nil
	}
	owner := m.ownerOf(len(m.levels) - 1)
	lv := &m.levels[owner]
	if lv.rescan != nil {
		return m.startScan(m.table, rangeOf(lv.rescan.start, lv.rescan.end, lv.snap), lv.id, "re-reading "+view.Cut(view.RangeText(lv.rescan.start, lv.rescan.end), 48)+" in full")
	}
	return m.startScan(m.table, nil, lv.id, "scanning "+m.table)
}

// showDataset shows a dataset in the heatmap: its prefix, or the range of
// its keys when they share none.
func (m *Model) showDataset(ds diagnose.Dataset) {
	if ds.Prefix != "" {
		m.jump(string(ds.Prefix), true)
		return
	}
	m.showRange(ds.Start, ds.End)
	m.setMessage("dataset "+escape.Text(ds.Name)+": its keys from "+keyspace.Printable(string(ds.Start))+" on", false)
}

// showRange shows the key range [start, end) in the heatmap, as a level
// of its own.
func (m *Model) showRange(start, end keyspace.Key) {
	cur := m.current()
	if cur == nil {
		return
	}
	m.push(level{state: cur.state.Child("", start, end).Showing(view.PaneHeatmap)})
}
