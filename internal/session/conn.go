// Package session holds the sources the interactive view reads: a live
// instance or emulator scanned by the sampler ([ConnSource]), the embedded
// demo emulator loading its scenarios ([DemoSource]), saved snapshot files
// ([SnapshotSource]), a traffic recording in progress joined with a scan
// ([RecordingSource]), and hot tablets, Cloud Bigtable's or the demo's
// simulated ones. Each meets package source's contract; this is where the
// network I/O is, so that the view and the program that runs it have none
// (docs/ARCHITECTURE.md).
package session

import (
	"context"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/source"
)

// ConnSource is the [source.Source] of a live Bigtable instance or
// emulator: tables through the admin API, sizes through SampleRowKeys and
// scans through [sampler.Scan].
type ConnSource struct {
	conn *connect.Conn
	opts sampler.Options
}

// NewConnSource returns the source reading through conn, scanning a table
// with opts (the command line's scan flags; their Progress and Preview are
// the view's); the caller keeps conn and closes it when the view is done.
func NewConnSource(conn *connect.Conn, opts sampler.Options) *ConnSource {
	return &ConnSource{conn: conn, opts: opts}
}

// Where names the instance and whether it is an emulator.
func (b *ConnSource) Where() string { return b.conn.Target.Where() }

// Live is true: a connection can scan.
func (b *ConnSource) Live() bool { return true }

// Reads says that a table is scanned.
func (b *ConnSource) Reads() string { return "btviz reads it with SampleRowKeys and parallel scans" }

// ListTables lists the instance's tables and their families.
func (b *ConnSource) ListTables(ctx context.Context) ([]source.TableInfo, error) {
	tables, err := b.conn.Tables(ctx)
	if err != nil {
		return nil, err
	}
	infos := make([]source.TableInfo, len(tables))
	for i, t := range tables {
		infos[i] = source.TableInfo{Name: t.Name, Families: t.Families}
	}
	return infos, nil
}

// TableSizes returns SampleRowKeys' size of each table.
func (b *ConnSource) TableSizes(ctx context.Context, tables []string) (map[string]int64, error) {
	return sampler.TableSizes(ctx, b.conn, tables)
}

// Scan runs [sampler.Scan] with the source's options, or within a key
// range in full (with the options' concurrency and value stripping),
// reporting to watch.
func (b *ConnSource) Scan(ctx context.Context, table string, within *source.Range, watch source.Watch) (*keyspace.Snapshot, error) {
	opts := b.opts
	if within != nil {
		opts = sampler.Options{Start: string(within.Start), End: string(within.End), Full: true, Concurrency: b.opts.Concurrency, StripValues: b.opts.StripValues, Delimiters: within.Delimiters}
	}
	opts.Progress, opts.Preview = watch.Progress, watch.Preview
	return sampler.Scan(ctx, b.conn, table, opts)
}

// Loads is nil: nothing loads in the background.
func (b *ConnSource) Loads() <-chan source.LoadProgress { return nil }
