// Package atomicfile writes files so that a reader never sees a partial
// one and a failure never leaves a truncated one behind: the content goes
// to a temporary file in the same directory, renamed over the target
// only once it is complete. Every file btviz writes — snapshots,
// recordings, screenshots, exports, report images — goes through [Write].
//
// No temporary file outlives the process either: [RemoveTemporary]
// removes every one not yet renamed. cmd/btviz calls it on its way out
// when SIGINT or SIGTERM stops a command mid-write, the one exit that
// skips the deferred clean-up of the goroutine doing the writing. The set
// of temporary files is process-wide state, like the signal handlers it
// serves: there is one process to clean up after.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// pending holds the temporary files written now.
var pending struct {
	sync.Mutex
	paths map[string]struct{}
}

func track(path string) {
	pending.Lock()
	defer pending.Unlock()
	if pending.paths == nil {
		pending.paths = map[string]struct{}{}
	}
	pending.paths[path] = struct{}{}
}

func untrack(path string) {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.paths, path)
}

// RemoveTemporary removes every temporary file a [Write] still holds and
// returns how many it removed. Writes in progress then fail; call it only
// on the way out of the process.
func RemoveTemporary() int {
	pending.Lock()
	defer pending.Unlock()
	removed := 0
	for path := range pending.paths {
		if os.Remove(path) == nil {
			removed++
		}
		delete(pending.paths, path)
	}
	return removed
}

// Write creates or replaces path with what write writes, atomically. The
// temporary file is ".<name>.<random>.tmp" beside path and is removed on
// every error, and by [RemoveTemporary]. The file gets mode 0644.
func Write(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w; check that its directory exists and is writable", path, err)
	}
	track(tmp.Name())
	defer func() {
		os.Remove(tmp.Name()) // a no-op once renamed
		untrack(tmp.Name())
	}()
	buffered := bufio.NewWriter(tmp)
	if err := write(buffered); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := buffered.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
