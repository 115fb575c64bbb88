package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesOnlyWhenComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("disk on fire")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half of the sec")
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("error %v does not wrap the writer's", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "first" {
		t.Fatalf("a failed write changed the file to %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the failed write left %d files behind", len(entries)-1)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", info.Mode().Perm())
	}
	if err := Write(filepath.Join(dir, "missing", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Fatal("writing into a missing directory succeeded")
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
