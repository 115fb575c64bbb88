package heatmap

import (
	"fmt"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// Bucketing names how a view's key range is cut into rows. The names are
// stable: they are the values of btviz's bucketing flag and key.
type Bucketing string

const (
	// BucketPrefix gives one row per child prefix of the view's node (at
	// [View.Depth]); when there are more than wanted, the adjacent pair
	// with the smallest combined metric is merged first, so hot children
	// stay apart.
	BucketPrefix Bucketing = "prefix"
	// BucketEven gives rows of about equal row counts, as Key Visualizer
	// draws them, from the finest units the tree has under the view.
	BucketEven Bucketing = "even"
	// BucketHeat keeps hot units apart and merges cold runs, with a
	// threshold searched so that about the wanted number of rows results
	// (TiDB's Key Visualizer): a single hot key survives any zoom.
	BucketHeat Bucketing = "heat"
	// BucketTablets gives one row per SampleRowKeys range
	// ([keyspace.Snapshot.Ranges]) that meets the view.
	BucketTablets Bucketing = "tablets"
)

// Bucketings returns every bucketing mode, in the order help texts list
// them.
func Bucketings() []Bucketing {
	return []Bucketing{BucketPrefix, BucketEven, BucketHeat, BucketTablets}
}

// ParseBucketing returns the bucketing mode named name. Its error lists
// the valid names and wraps [ErrUnknownName].
func ParseBucketing(name string) (Bucketing, error) {
	for _, b := range Bucketings() {
		if string(b) == name {
			return b, nil
		}
	}
	return "", fmt.Errorf("%w: bucketing %q; valid bucketings are %s", ErrUnknownName, name, units.OrList(Bucketings()))
}

func (b Bucketing) valid() bool {
	_, err := ParseBucketing(string(b))
	return err == nil
}

// Bucket is one row of a [Matrix]: the key range [Start, End), what it
// holds and its values. Buckets tile the view: each one's End is the next
// one's Start.
type Bucket struct {
	Start, End keyspace.Key
	// LabelKey is the key the labels name: Start, or for a view's first
	// bucket the first key it holds (a view's start is often the prefix
	// all its keys share).
	LabelKey keyspace.Key
	// Label names the bucket for a key axis by the start of its range:
	// the prefix it is exactly, or the part of LabelKey that sets it
	// apart from the bucket above, to the end of that key segment
	// ("user#mila_rosewood#p000012#"). Labels increase strictly from the
	// top down. ShortLabel is the same with the view's shared prefix
	// ([Matrix.SharedPrefix]) written as a leading "…". Both are escaped
	// by [keyspace.Printable].
	Label, ShortLabel string
	// HexFrom is the byte of LabelKey from which the labels write every
	// byte as \xNN, printable or not (where buckets branch on a mix of
	// bytes that need an escape and bytes that do not, so that the labels
	// keep the keys' order); −1 when no byte is. The details write the
	// bucket's range the same way ([Matrix.BoundTexts]).
	HexFrom int
	// LabelTime is the UTC time a time segment of the label holds
	// ("2026-10-31 00:00:32Z", "rev …" for a reversed timestamp, see
	// package keytime), or "" when it holds none.
	LabelTime string
	// Node is the tree node the bucket is exactly, or nil for a merge of
	// several units, a tablet, or the rows of a prefix that none of its
	// children holds.
	Node *keyspace.Node
	// Units is how many tree nodes or tablets the bucket merges.
	Units int
	// Stats aggregate the bucket's rows, Traffic its recorded traffic.
	Stats   keyspace.Stats
	Traffic keyspace.OpCounts
	// Latency is the latency of the bucket's recorded calls over the
	// whole recording (empty without latencies); CPU its hot tablets' CPU
	// over their window, in percent-minutes.
	Latency keyspace.LatencySketch
	CPU     float64
	// Values holds the metric per matrix column.
	Values []float64
}

// CanDrill reports whether the bucket can be shown in more detail from the
// same snapshot: a prefix node with children, or a merge of several units
// (shown as a range view).
func (b *Bucket) CanDrill() bool {
	if b.Node != nil {
		return b.Node.Kind == keyspace.KindPrefix && !b.Node.IsLeaf()
	}
	return b.Units > 1
}

// NeedsRescan reports whether more detail on the bucket needs a new scan
// of its key range: a single row, a range the builder merged, or a leaf
// the tree's limits stopped at.
func (b *Bucket) NeedsRescan() bool { return !b.CanDrill() }
