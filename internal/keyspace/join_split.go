package keyspace

import (
	"slices"
	"strings"
)

// A scan's tree merges runs of small siblings into range nodes to bound
// its fan-out (2,000 users become about 100 ranges of 20), while a
// recording names exactly the prefix its traffic went to (one hot user).
// Before a recording's traffic is grafted onto a scan, each range leaf of
// the scan that strictly holds a prefix or row the recording names is cut
// at it, so that the joined tree, and every view and finding of it, names
// the recording's prefix rather than the range around it. The stored
// rows of a range are divided among its pieces by the scan's row sample:
// each piece gets the range's counts in proportion to the sampled rows
// that fall in it (all of them, in a full scan of up to the sample's
// size), and its maxima, keys and times from those rows.

// splitAtRecording cuts the range leaves of out's tree at the shallowest
// prefix and row nodes of the recorded tree rec that lie strictly inside
// them.
func splitAtRecording(out *Snapshot, rec *Node) {
	if out.Root == nil || rec == nil {
		return
	}
	cuts := map[*Node][]*Node{} // range leaf of out → recorded nodes inside it
	parents := map[*Node]*Node{}
	var walk func(t *Node)
	walk = func(t *Node) {
		if t.Kind != KindRange && t.Traffic != nil && t.Prefix != "" {
			path := out.Root.Find(string(t.Start))
			d := path[len(path)-1]
			if d.Kind == KindRange && d.IsLeaf() && len(path) > 1 && d.holds(t) && (d.Start != t.Start || d.End != t.End) {
				cuts[d] = append(cuts[d], t)
				parents[d] = path[len(path)-2]
				return // its children lie in the same piece
			}
		}
		for _, child := range t.Children {
			walk(child)
		}
	}
	walk(rec)
	for d, inside := range cuts {
		parent := parents[d]
		i := slices.Index(parent.Children, d)
		if i < 0 {
			continue
		}
		pieces := cutLeafAt(d, inside, out.Sample)
		parent.Children = slices.Replace(parent.Children, i, i+1, pieces...)
	}
}

// cutLeafAt returns the pieces of range leaf d cut at the recorded nodes
// inside it (sorted, disjoint): a node of each recorded prefix or row, at
// d's depth, and range nodes for the gaps between them.
func cutLeafAt(d *Node, inside []*Node, sample []SampledRow) []*Node {
	slices.SortFunc(inside, func(a, b *Node) int { return strings.Compare(string(a.Start), string(b.Start)) })
	var pieces []*Node
	gap := func(start, end Key) {
		prefix := Key(CommonPrefix(string(start), string(end)))
		if len(prefix) < len(d.Prefix) && strings.HasPrefix(string(start), string(d.Prefix)) {
			prefix = d.Prefix
		}
		pieces = append(pieces, &Node{Kind: KindRange, Prefix: prefix, Start: start, End: end, Depth: d.Depth})
	}
	at, atEnd := d.Start, false // atEnd: the pieces reach the end of the table
	for _, t := range inside {
		if atEnd || t.Start < at {
			continue // overlaps the piece before: left in it
		}
		if at < t.Start {
			gap(at, t.Start)
		}
		pieces = append(pieces, &Node{Kind: t.Kind, Prefix: t.Prefix, Start: t.Start, End: t.End, Depth: d.Depth})
		at, atEnd = t.End, t.End == ""
	}
	if !atEnd && (d.End == "" || at < d.End) {
		gap(at, d.End)
	}
	divideStats(d, pieces, sample)
	return pieces
}

// divideStats gives each piece of d its part of d's rows: d's counts and
// write histogram in proportion to the sample's rows in it (shared alike
// when the sample holds none of d's), its maxima, first and last key and
// times from its sampled rows, and d's largest rows that lie in it.
func divideStats(d *Node, pieces []*Node, sample []SampledRow) {
	weights := make([]float64, len(pieces))
	from := sortSearchSample(sample, string(d.Start))
	for _, row := range sample[from:] {
		if !d.Contains(string(row.Key)) {
			break
		}
		for i, p := range pieces {
			if p.Contains(string(row.Key)) {
				w := row.Weight
				weights[i] += w
				p.Stats.observe(row)
				break
			}
		}
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	for i, p := range pieces {
		share := 1 / float64(len(pieces))
		if total > 0 {
			share = weights[i] / total
		}
		p.Rows = d.Rows * share
		p.Cells = d.Cells * share
		p.Bytes = d.Bytes * share
		p.ValueBytes = d.ValueBytes * share
		p.KeyBytes = d.KeyBytes * share
		p.Columns = d.Columns * share
		p.FamilyMask = slices.Clone(d.FamilyMask)
		p.Writes = d.Writes.clone()
		for k := range p.Writes.Counts {
			p.Writes.Counts[k] *= share
		}
		for _, top := range d.Top {
			if p.Contains(string(top.Key)) {
				p.Top = append(p.Top, top)
				p.MaxRowBytes = max(p.MaxRowBytes, top.Bytes)
			}
		}
		for _, top := range d.TopVersioned {
			if p.Contains(string(top.Key)) {
				p.TopVersioned = append(p.TopVersioned, top)
				p.MaxVersions = max(p.MaxVersions, top.MaxVersions)
			}
		}
	}
}

// observe widens a piece's maxima, keys and times to hold a sampled row.
func (s *Stats) observe(row SampledRow) {
	s.MaxRowBytes = max(s.MaxRowBytes, row.Bytes)
	s.MaxRowCells = max(s.MaxRowCells, row.Cells)
	s.MaxRowColumns = max(s.MaxRowColumns, row.Columns)
	s.MaxVersions = max(s.MaxVersions, row.MaxVersions)
	s.MaxKeyBytes = max(s.MaxKeyBytes, int64(len(row.Key)))
	if s.LastKey == "" || row.Key < s.FirstKey {
		s.FirstKey = row.Key
	}
	if row.Key > s.LastKey {
		s.LastKey = row.Key
	}
	if s.FirstWrite == 0 || row.FirstWrite < s.FirstWrite {
		s.FirstWrite = row.FirstWrite
	}
	s.LastWrite = max(s.LastWrite, row.LastWrite)
}

// sortSearchSample returns the index of the first sampled row at or after
// key (the sample is in key order).
func sortSearchSample(sample []SampledRow, key string) int {
	i, _ := slices.BinarySearchFunc(sample, key, func(row SampledRow, key string) int { return strings.Compare(string(row.Key), key) })
	return i
}
