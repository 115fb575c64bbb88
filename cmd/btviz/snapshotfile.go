package main

import (
	"strconv"
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
)

// maxSnapshotEnv raises (or lowers) the decompressed size a snapshot file
// may have, in MB; the default is [keyspace.DefaultMaxFileBytes].
const maxSnapshotEnv = "BTVIZ_MAX_SNAPSHOT_MB"

// snapshotReader reads snapshot and recording files within the size
// limit $BTVIZ_MAX_SNAPSHOT_MB sets.
func (a *app) snapshotReader() (keyspace.Reader, error) {
	reader := keyspace.Reader{LimitHint: "set " + maxSnapshotEnv + " to a higher number of MB"}
	if value := strings.TrimSpace(a.getenv(maxSnapshotEnv)); value != "" {
		mb, err := strconv.ParseInt(value, 10, 64)
		if err != nil || mb <= 0 || mb > 1<<20 {
			return reader, usageErrorf("%s=%q: give the most a snapshot file may decompress to as a whole number of MB, e.g. 1024", maxSnapshotEnv, value)
		}
		reader.MaxBytes = mb << 20
	}
	return reader, nil
}

// loadSnapshot reads a snapshot file (not a recording) with
// [app.snapshotReader]. Every error is an input error (exit 2).
func (a *app) loadSnapshot(path string) (*keyspace.Snapshot, error) {
	reader, err := a.snapshotReader()
	if err != nil {
		return nil, err
	}
	snap, err := reader.Load(path)
	if err != nil {
		return nil, usageError(err)
	}
	return snap, nil
}
