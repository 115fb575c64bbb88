package keyspace

// Options bound what a [Builder] keeps. The zero value of each field picks
// its default; the defaults keep a snapshot within a few tens of MB
// whatever the table's size.
type Options struct {
	// Delimiters fixes the key-segment delimiters; empty means detect them
	// from the first DetectRows rows, unless DelimitersDecided is set.
	Delimiters string
	// DelimitersDecided makes Delimiters final even when empty (keys with
	// no delimiters), so that builders whose results are appended together
	// (see [Builder.Append]) all split keys as the caller decided once.
	DelimitersDecided bool
	// DetectRows is how many rows are buffered to detect delimiters
	// (default 2000).
	DetectRows int
	// MaxChildren caps a node's fan-out; beyond it the siblings with the
	// fewest rows are merged into ranges (default 128).
	MaxChildren int
	// MaxDepth is the deepest segment level the tree splits (default 8).
	MaxDepth int
	// MaxNodes caps the whole tree (default 20000); past it, the tree
	// gives up its deepest level everywhere (see [Snapshot.TreeDepth]).
	MaxNodes int
	// TopRows is the length of the snapshot's largest and most versioned
	// row lists (default 50); NodeTopRows that of each node (default 3).
	TopRows     int
	NodeTopRows int
	// SampleSize is the size of the uniform row sample (default 20000).
	SampleSize int
	// Seed seeds the row sample, so that equal scans give equal snapshots.
	Seed uint64
}

const (
	defaultDetectRows  = 2000
	defaultMaxChildren = 128
	defaultMaxDepth    = 8
	defaultMaxNodes    = 20000
	defaultTopRows     = 50
	defaultNodeTopRows = 3
	defaultSampleSize  = 20000
	// compactToShare is the share of MaxChildren a node is merged down to
	// when it overflows, so that merges happen in batches.
	compactToShare = 0.75
)

func (o Options) withDefaults() Options {
	setDefault := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setDefault(&o.DetectRows, defaultDetectRows)
	setDefault(&o.MaxChildren, defaultMaxChildren)
	setDefault(&o.MaxDepth, defaultMaxDepth)
	setDefault(&o.MaxNodes, defaultMaxNodes)
	setDefault(&o.TopRows, defaultTopRows)
	setDefault(&o.NodeTopRows, defaultNodeTopRows)
	setDefault(&o.SampleSize, defaultSampleSize)
	o.MaxChildren = max(o.MaxChildren, 2)
	return o
}
