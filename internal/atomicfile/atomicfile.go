// Package atomicfile writes files so that a reader never sees a partial
// one and a failure never leaves a truncated one behind: the content goes
// to a temporary file in the same directory, renamed over the target
// only once it is complete. Every file btviz writes — snapshots,
// recordings, screenshots, exports, report images — goes through [Write].
//
// A write is durable once [Write] returns: the temporary file's content is
// flushed to the disk (fsync) before the rename, and the directory after
// it, so that a crash or a power cut leaves the old file or the new one,
// never an empty or a half-written one under the name (a rename alone
// may reach the disk before the data it points at, and the rename itself
// lives in the directory).
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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
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

// syncFile flushes a file (or a directory) to the disk; a test replaces it
// to see what is synced, and in what order.
var syncFile = (*os.File).Sync

// Write creates or replaces path with what write writes, atomically and
// durably: the file is synced before it is renamed into place and its
// directory after. The temporary file is ".<name>.<random>.tmp" beside
// path and is removed on every error, and by [RemoveTemporary]. The file
// gets mode 0644.
func Write(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err // the temporary file's name means nothing to the reader
		}
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
	if err := syncFile(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: flushing it to the disk: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("writing %s: the file is in place, but flushing its directory to the disk failed (a crash now could lose it): %w", path, err)
	}
	return nil
}

// syncDir flushes a directory's entries to the disk, so that a rename in
// it survives a crash. Systems that cannot sync a directory (Windows
// refuses to open one for it) keep what their rename gives.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		if runtime.GOOS == "windows" {
			return nil
		}
		return err
	}
	defer d.Close()
	if err := syncFile(d); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err // EINVAL, ENOTSUP: a file system that has nothing to sync for directories
	}
	return nil
}
