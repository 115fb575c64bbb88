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
// map's bounds and the scanned range's. A tablet map's ranges that the
// cut leaves empty (two bounds that share their first [KeptKeyBytes]
// bytes) are merged into the range before them.
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
	long := false
	for i := range meta.Ranges {
		long = long || len(meta.Ranges[i].Start) > KeptKeyBytes || len(meta.Ranges[i].End) > KeptKeyBytes
	}
	if !long {
		return
	}
	kept := meta.Ranges[:0]
	var carried *Range // empty ranges before the first that is not
	for _, r := range meta.Ranges {
		for _, k := range []*Key{&r.Start, &r.End} {
			if len(*k) > KeptKeyBytes {
				b.longKeys = noteLongKey(b.longKeys, string(*k))
				*k = Key(cutKey(string(*k)))
			}
		}
		if last := len(kept) - 1; last >= 0 && r.Start < kept[last].End {
			r.Start = kept[last].End // cut bounds of one head sort by their tails
		}
		if r.End != "" && r.End <= r.Start {
			// Empty as kept: its bytes go to a neighbour.
			switch last := len(kept) - 1; {
			case last >= 0:
				kept[last].SampledBytes += r.SampledBytes
			case carried == nil:
				carried = &Range{Start: r.Start, SampledBytes: r.SampledBytes}
			default:
				carried.SampledBytes += r.SampledBytes
			}
			continue
		}
		if carried != nil {
			r.Start, r.SampledBytes = min(r.Start, carried.Start), r.SampledBytes+carried.SampledBytes
			carried = nil
		}
		kept = append(kept, r)
	}
	if carried != nil { // every range was empty as kept
		carried.End = Key(PrefixEnd(string(carried.Start)))
		kept = append(kept, *carried)
	}
	meta.Ranges = kept
}

// maxNodes is the builder's node budget: [Options.MaxNodes], fewer when
// long keys would make the tree too large a file ([TreeKeyBytes]).
func (b *Builder) maxNodes() int { return b.keys.nodes(b.opts.MaxNodes) }

// applyKeyBudget shrinks the tree and the sample to what the longest key
// so far allows.
func (b *Builder) applyKeyBudget() {
	b.sample.resize(b.keys.sampleRows(b.opts.SampleSize))
	if b.nodes > b.maxNodes() {
		b.prune()
	}
}

// setNodeBudget changes the builder's node budget (a recording shares
// [RecordingNodes] among its tables), giving up tree levels at once when
// the tree is over it.
func (b *Builder) setNodeBudget(nodes int) {
	b.opts.MaxNodes = nodes
	if b.nodes > b.maxNodes() {
		b.prune()
	}
}
