package keyspace

// How a [Builder] keeps what it writes inside the limits of limits.go.

// cutRow returns a copy of row with its key cut to [KeptKeyBytes], its
// full length kept for the key-byte counts, and notes the long key.
func (b *Builder) cutRow(row *Row) *Row {
	cut := *row
	cut.Key = cutKey(row.Key)
	cut.keyBytes = len(row.Key)
	b.longKeys = noteLongKey(b.longKeys, row.Key)
	return &cut
}

// cutOp returns op with every key cut to [KeptKeyBytes], noting the long
// ones: op itself when none is long (nearly always), else a copy.
func (b *Builder) cutOp(op *Op) *Op {
	long := false
	for _, k := range op.Keys {
		long = long || len(k) > KeptKeyBytes
	}
	for _, r := range op.Ranges {
		long = long || len(r.Start) > KeptKeyBytes || len(r.End) > KeptKeyBytes
	}
	for _, rows := range [][]RowIO{op.RowsRead, op.RowsWritten} {
		for _, r := range rows {
			long = long || len(r.Key) > KeptKeyBytes
		}
	}
	if !long {
		return op
	}
	cut := *op
	cutOne := func(k Key) Key {
		if len(k) > KeptKeyBytes {
			b.longKeys = noteLongKey(b.longKeys, string(k))
			return Key(cutKey(string(k)))
		}
		return k
	}
	cut.Keys = make([]Key, len(op.Keys))
	for i, k := range op.Keys {
		cut.Keys[i] = cutOne(k)
	}
	cut.Ranges = make([]KeyRange, 0, len(op.Ranges))
	for _, r := range op.Ranges {
		for _, k := range []Key{r.Start, r.End} {
			if len(k) > KeptKeyBytes {
				b.longKeys = noteLongKey(b.longKeys, string(k))
			}
		}
		start, end := cutRange(string(r.Start), string(r.End))
		cut.Ranges = append(cut.Ranges, KeyRange{Start: Key(start), End: Key(end)})
	}
	cutRows := func(rows []RowIO) []RowIO {
		out := make([]RowIO, len(rows))
		for i, r := range rows {
			out[i] = RowIO{Key: cutOne(r.Key), Bytes: r.Bytes}
		}
		return out
	}
	cut.RowsRead, cut.RowsWritten = cutRows(op.RowsRead), cutRows(op.RowsWritten)
	return &cut
}

// noteOpKeys measures the keys of op for the key budget.
func (b *Builder) noteOpKeys(op *Op) {
	longer := false
	for _, k := range op.Keys {
		longer = b.keys.note(string(k)) || longer
	}
	for _, r := range op.Ranges {
		longer = b.keys.note(string(r.Start)) || longer
		longer = b.keys.note(string(r.End)) || longer
	}
	for _, rows := range [][]RowIO{op.RowsRead, op.RowsWritten} {
		for _, r := range rows {
			longer = b.keys.note(string(r.Key)) || longer
		}
	}
	if longer {
		b.applyKeyBudget()
	}
}

// cutMeta cuts the keys the builder is given before any row: the tablet
// map's bounds and the scanned range's. Ranges of the tablet map that the
// cut leaves empty (bounds that share their first [KeptKeyBytes] bytes)
// are merged into the range before them, and neighbours are merged when
// the map's keys would take more than [RangeKeyBytes] in a file; the
// builder maps the ranges it was given to the ones it keeps
// ([Builder.keptRange]).
func (b *Builder) cutMeta(meta *Snapshot) {
	for _, k := range []*Key{&meta.Scan.Start, &meta.Scan.End, &meta.Scan.Prefix} {
		if len(*k) > KeptKeyBytes {
			b.longKeys = noteLongKey(b.longKeys, string(*k))
		}
	}
	if len(meta.Scan.Prefix) > KeptKeyBytes {
		meta.Scan.Prefix = Key(cutHead(string(meta.Scan.Prefix)))
	}
	start, end := cutRange(string(meta.Scan.Start), string(meta.Scan.End))
	meta.Scan.Start, meta.Scan.End = Key(start), Key(end)
	longest := 0
	var ranges keyBudget
	for i := range meta.Ranges {
		r := &meta.Ranges[i]
		longest = max(longest, len(r.Start), len(r.End))
		ranges.note(cutKey(string(r.Start)))
		ranges.note(cutKey(string(r.End)))
	}
	group := 1 // ranges merged into one
	if ranges.longest > 0 {
		group = (2*len(meta.Ranges)*ranges.longest + RangeKeyBytes - 1) / RangeKeyBytes
	}
	if longest <= KeptKeyBytes && group <= 1 {
		return
	}
	b.rangeIndex = make([]int, len(meta.Ranges))
	kept := meta.Ranges[:0]
	var carried *Range // empty ranges before the first that is not
	for i, r := range meta.Ranges {
		for _, k := range []*Key{&r.Start, &r.End} {
			if len(*k) > KeptKeyBytes {
				b.longKeys = noteLongKey(b.longKeys, string(*k))
				*k = Key(cutKey(string(*k)))
			}
		}
		last := len(kept) - 1
		if last >= 0 && r.Start < kept[last].End {
			r.Start = kept[last].End // cut bounds of one head sort by their tails
		}
		empty := r.End != "" && r.End <= r.Start
		switch {
		case empty && last < 0:
			// Empty as kept, before any range: its bytes go to the next.
			if carried == nil {
				carried = &Range{Start: r.Start}
			}
			carried.SampledBytes += r.SampledBytes
			b.rangeIndex[i] = 0
			continue
		case empty || last >= 0 && i%group != 0:
			// Empty as kept, or one of a group merged for the map's size:
			// part of the range before.
			kept[last].SampledBytes += r.SampledBytes
			if !empty {
				kept[last].End = r.End
			}
			b.rangeIndex[i] = last
			continue
		}
		if carried != nil {
			r.Start, r.SampledBytes = min(r.Start, carried.Start), r.SampledBytes+carried.SampledBytes
			carried = nil
		}
		kept = append(kept, r)
		b.rangeIndex[i] = len(kept) - 1
	}
	if carried != nil { // every range was empty as kept
		carried.End = Key(PrefixEnd(string(carried.Start)))
		kept = append(kept, *carried)
	}
	meta.Ranges = kept
}

// keptRange returns the range the builder keeps for range i of the
// tablet map it was given.
func (b *Builder) keptRange(i int) int {
	if b.rangeIndex == nil {
		return i
	}
	return b.rangeIndex[i]
}

// maxNodes is the builder's node budget: [Options.MaxNodes], fewer when
// long keys would make the tree too large a file ([TreeKeyBytes]).
func (b *Builder) maxNodes() int { return b.keys.nodes(b.opts.MaxNodes) }

// applyKeyBudget shrinks the tree, the sample and the list of long keys
// to what the longest key so far allows.
func (b *Builder) applyKeyBudget() {
	b.sample.resize(b.keys.sampleRows(b.opts.SampleSize))
	b.longKeys = b.longKeys[:min(len(b.longKeys), b.keys.listRows(LongKeysKept))]
	if b.nodes > b.maxNodes() {
		b.prune()
	}
	if b.nodes > b.maxNodes() {
		b.shrinkTo(b.maxNodes())
	}
}

// setBudget changes the builder's node budget and its budget of key
// bytes (a recording shares [RecordingNodes] and [RecordingKeyBytes]
// among its tables), giving up tree levels at once when the tree is over
// them.
func (b *Builder) setBudget(nodes, keyBytes int) {
	b.opts.MaxNodes = nodes
	b.keys.bytes = keyBytes
	b.applyKeyBudget()
}

// shrinkTo gives up tree levels until the tree holds at most nodes nodes,
// down to the shared prefix alone: what [Builder.prune] does not give up
// (the first level) when long keys leave a budget smaller than a level.
func (b *Builder) shrinkTo(nodes int) {
	for b.depth > 0 && b.nodes > nodes {
		b.collapseTo(b.depth - 1)
	}
}
