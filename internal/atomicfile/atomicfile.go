// Package atomicfile writes files so that a reader never sees a partial
// one and a failure never leaves a truncated one behind: the content goes
// to a temporary file in the same directory, renamed over the target
// only once it is complete. Every file btviz writes — snapshots,
// recordings, screenshots, exports, report images — goes through [Write].
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates or replaces path with what write writes, atomically. The
// temporary file is ".<name>.<random>.tmp" beside path and is removed on
// every error. The file gets mode 0644.
func Write(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w; check that its directory exists and is writable", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
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
