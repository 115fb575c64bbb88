package tui

import (
	"context"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/sampler"
)

// ConnBackend is the [Backend] of a live Bigtable instance or emulator:
// tables through the admin API, sizes through SampleRowKeys and scans
// through [sampler.Scan].
type ConnBackend struct {
	conn *connect.Conn
}

// NewConnBackend returns the backend reading through conn; the caller
// keeps conn and closes it after [Run] returns.
func NewConnBackend(conn *connect.Conn) *ConnBackend { return &ConnBackend{conn: conn} }

// Where names the instance and whether it is an emulator.
func (b *ConnBackend) Where() string { return b.conn.Target.Where() }

// Live is true: a connection can scan.
func (b *ConnBackend) Live() bool { return true }

// Reads says that a table is scanned.
func (b *ConnBackend) Reads() string { return "btviz reads it with SampleRowKeys and parallel scans" }

// ListTables lists the instance's tables and their families.
func (b *ConnBackend) ListTables(ctx context.Context) ([]TableInfo, error) {
	tables, err := b.conn.Tables(ctx)
	if err != nil {
		return nil, err
	}
	infos := make([]TableInfo, len(tables))
	for i, t := range tables {
		infos[i] = TableInfo{Name: t.Name, Families: t.Families}
	}
	return infos, nil
}

// TableSizes returns SampleRowKeys' size of each table.
func (b *ConnBackend) TableSizes(ctx context.Context, tables []string) (map[string]int64, error) {
	return sampler.TableSizes(ctx, b.conn, tables)
}

// Scan runs [sampler.Scan] with progress as its progress receiver.
func (b *ConnBackend) Scan(ctx context.Context, table string, opts sampler.Options, progress func(sampler.Progress)) (*keyspace.Snapshot, error) {
	opts.Progress = progress
	return sampler.Scan(ctx, b.conn, table, opts)
}

// Loads is nil: nothing loads in the background.
func (b *ConnBackend) Loads() <-chan LoadProgress { return nil }
