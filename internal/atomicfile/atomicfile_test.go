package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteLeavesTheFileOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "hello"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "hello" {
		t.Fatalf("file holds %q", got)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", info.Mode())
	}
	failed := filepath.Join(dir, "failed.txt")
	if err := Write(failed, func(w io.Writer) error { return errors.New("boom") }); err == nil {
		t.Fatal("a failed write succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the directory holds %v, want only out.txt", entries)
	}
}

// TestRemoveTemporaryRemovesWritesInProgress: the temporary file of a
// write that is still running is removed, as a stopped process needs.
func TestRemoveTemporaryRemovesWritesInProgress(t *testing.T) {
	dir := t.TempDir()
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- Write(filepath.Join(dir, "slow.txt"), func(w io.Writer) error {
			close(started)
			<-release
			return nil
		})
	}()
	<-started
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("no temporary file while writing: %v", entries)
	}
	if n := RemoveTemporary(); n != 1 {
		t.Fatalf("removed %d temporary files, want 1", n)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left %v", entries)
	}
	close(release)
	if err := <-done; err == nil {
		t.Error("a write whose temporary file was removed succeeded")
	}
}
