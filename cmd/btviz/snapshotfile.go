package main

import (
	"strconv"
	"strings"

	"github.com/btviz/btviz/keyspace"
)

// maxSnapshotEnv raises (or lowers) the decompressed size a snapshot file
// may have, in MB; the default is [keyspace.DefaultMaxFileBytes].
const maxSnapshotEnv = "BTVIZ_MAX_SNAPSHOT_MB"

// loadSnapshot reads a snapshot file within the size limit
// $BTVIZ_MAX_SNAPSHOT_MB sets. Every error is an input error (exit 2).
func (a *app) loadSnapshot(path string) (*keyspace.Snapshot, error) {
	reader := keyspace.Reader{LimitHint: "set " + maxSnapshotEnv + " to a higher number of MB"}
	if value := strings.TrimSpace(a.getenv(maxSnapshotEnv)); value != "" {
		mb, err := strconv.ParseInt(value, 10, 64)
		if err != nil || mb <= 0 || mb > 1<<20 {
			return nil, usageErrorf("%s=%q: give the most a snapshot file may decompress to as a whole number of MB, e.g. 1024", maxSnapshotEnv, value)
		}
		reader.MaxBytes = mb << 20
	}
	snap, err := reader.Load(path)
	if err != nil {
		return nil, usageError(err)
	}
	return snap, nil
}
