package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// readSnapshots reads snapshot files (`btviz scan --out`), traffic
// recordings (`btviz record --out`) and hot tablets (`btviz hot-tablets
// --out`) and returns one snapshot per table, sorted by table: a table's
// recordings merged into one (several recording proxies, one beside each
// instance of a service), joined with its scan, with its hot tablets
// placed on it. Two scans of one table, or two files of its hot tablets,
// are a usage error: there is no telling which to show.
func (a *app) readSnapshots(paths []string) ([]*keyspace.Snapshot, error) {
	reader, err := a.snapshotReader()
	if err != nil {
		return nil, err
	}
	type parts struct {
		stored, hot *keyspace.Snapshot
		traffic     []*keyspace.Snapshot
		names       []string
	}
	byTable := map[string]*parts{}
	for _, path := range paths {
		file, err := reader.ReadFile(path)
		if err != nil {
			return nil, usageError(err)
		}
		for _, d := range file.Damaged {
			name := "table " + escape.Quote(d.Table)
			if d.Table == "" {
				name = fmt.Sprintf("table %d", d.Index+1)
			}
			fmt.Fprintf(a.stderr, "btviz: warning: %s\n", safeMessage(fmt.Sprintf("%s: %s is left out, the rest of the recording is read: %v", path, name, d.Err)))
		}
		if rec := file.Recording; rec != nil && len(rec.Tables) == 0 {
			return nil, emptyRecordingError(path, rec)
		}
		for _, snap := range file.Snapshots() {
			p := byTable[snap.Table]
			if p == nil {
				p = &parts{}
				byTable[snap.Table] = p
			}
			switch {
			case snap.HasTraffic():
				p.traffic, p.names = append(p.traffic, snap), append(p.names, path)
				continue
			case snap.HotTabletsOnly():
				if p.hot != nil {
					return nil, usageErrorf("two files of hot tablets of table %s among %s: give one", escape.Quote(snap.Table), strings.Join(paths, ", "))
				}
				p.hot = snap
				continue
			}
			if p.stored != nil {
				return nil, usageErrorf("two scans of table %s among %s: give one scan of a table (with its recordings and hot tablets)", escape.Quote(snap.Table), strings.Join(paths, ", "))
			}
			p.stored = snap
		}
	}
	var snaps []*keyspace.Snapshot
	for _, p := range byTable {
		var traffic *keyspace.Snapshot
		if len(p.traffic) > 0 {
			merged, err := keyspace.MergeRecordings(p.traffic, p.names)
			if err != nil {
				return nil, usageError(err)
			}
			if m := merged.Traffic.Merged; m != nil {
				fmt.Fprintf(a.stderr, "btviz: %s\n", safeMessage(fmt.Sprintf("table %s: %d recordings merged (%s)", escape.Quote(merged.Table), m.Recordings, strings.Join(m.Names, ", "))))
				for _, o := range m.ClockOffsets {
					fmt.Fprintf(a.stderr, "btviz: note: %s\n", safeMessage(o.Text()))
				}
				for _, n := range m.Notes {
					fmt.Fprintf(a.stderr, "btviz: note: %s\n", safeMessage(n))
				}
			}
			traffic = merged
		}
		var snap *keyspace.Snapshot
		switch {
		case p.stored == nil && traffic == nil:
			snap = p.hot
		case p.stored == nil:
			snap = traffic
		case traffic == nil:
			snap = p.stored
		default:
			joined, err := keyspace.Join(p.stored, traffic)
			if err != nil {
				return nil, usageError(err)
			}
			if overlap := keyspace.Overlap(p.stored, traffic); overlap.Share() < keyspace.JoinMinOverlap {
				fmt.Fprintf(a.stderr, "btviz: warning: %s\n", safeMessage(fewSharedKeys(p.stored.Table, overlap)))
			}
			snap = joined
		}
		if p.hot != nil && snap != p.hot {
			snap = keyspace.WithHotTablets(snap, p.hot.HotTablets)
		}
		snaps = append(snaps, snap)
	}
	slices.SortFunc(snaps, func(a, b *keyspace.Snapshot) int { return strings.Compare(a.Table, b.Table) })
	return snaps, nil
}

// fewSharedKeys says that a recording and a scan joined as one table
// share few keys, with the numbers, and what that may mean.
func fewSharedKeys(table string, o keyspace.KeyOverlap) string {
	span := func(first, last keyspace.Key) string {
		if first == "" && last == "" {
			return "none"
		}
		return first.String() + " … " + last.String()
	}
	return fmt.Sprintf("the recording and the scan of table %s share few keys: %s of the %s recorded operations (%s) fall on keys the scan found "+
		"(the traffic touched %s; the scan found %s). If they are of different tables (another instance, a table recreated with other keys), "+
		"give a scan and a recording of the same one; traffic on rows written after the scan falls outside it as expected",
		escape.Quote(table), units.Percent(o.Share()), units.Thousands(int64(o.Ops+0.5)), units.Thousands(int64(o.OnStored+0.5)),
		span(o.TouchedFirst, o.TouchedLast), span(o.StoredFirst, o.StoredLast))
}

// emptyRecordingError says that the recording at path holds no call on
// any table, and how to record one that does.
func emptyRecordingError(path string, rec *keyspace.Recording) error {
	ran := "btviz record ran " + units.Duration(rec.Duration)
	if rec.Upstream != "" {
		ran += " in front of " + escape.Text(rec.Upstream)
	}
	if rec.Undecoded > 0 {
		ran += fmt.Sprintf(" (%s calls were forwarded but could not be decoded)", units.Thousands(rec.Undecoded))
	}
	if rec.NotFound != nil {
		return usageErrorf("%s holds no calls on any table that exists: %s, and its %s calls were on tables the upstream answered NotFound for (%s). "+
			"Create the tables, or point the application at the instance that holds them, then record again",
			escape.Text(path), ran, units.Thousands(rec.NotFound.Calls), leftOutNames(rec.NotFound))
	}
	return usageErrorf("%s holds no calls on any table: %s and no client called a table through it. "+
		"Set the application's BIGTABLE_EMULATOR_HOST to the address btviz record listens on (it prints the line to use), then record again",
		escape.Text(path), ran)
}

// pickTable returns the snapshot of table among snaps, or the only one
// when table is empty; the error lists the tables there are.
func pickTable(snaps []*keyspace.Snapshot, table string) (*keyspace.Snapshot, error) {
	names := make([]string, len(snaps))
	for i, s := range snaps {
		names[i] = escape.Quote(s.Table)
		if s.Table == table || (table == "" && len(snaps) == 1) {
			return s, nil
		}
	}
	if table == "" {
		return nil, usageErrorf("the files hold %d tables (%s): name one with --table", len(snaps), strings.Join(names, ", "))
	}
	return nil, usageErrorf("table %s is not in the files, which hold %s", escape.Quote(table), strings.Join(names, ", "))
}
