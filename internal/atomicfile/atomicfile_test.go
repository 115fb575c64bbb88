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

// TestWriteSyncsTheFileThenItsDirectory: the content reaches the disk
// before the rename makes it visible under the name, and the rename
// (an entry of the directory) after it; a crash then leaves the old file
// or the whole new one. It records the syncs Write makes.
func TestWriteSyncsTheFileThenItsDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	type synced struct {
		name         string
		isDir        bool
		targetExists bool // whether path existed when the sync was made
		content      string
	}
	var syncs []synced
	defer func(orig func(*os.File) error) { syncFile = orig }(syncFile)
	syncFile = func(f *os.File) error {
		info, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		s := synced{name: f.Name(), isDir: info.IsDir()}
		if !s.isDir {
			content, _ := os.ReadFile(f.Name())
			s.content = string(content)
		}
		_, err = os.Stat(path)
		s.targetExists = err == nil
		syncs = append(syncs, s)
		return f.Sync()
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "whole"); return err }); err != nil {
		t.Fatal(err)
	}
	if len(syncs) != 2 {
		t.Fatalf("Write synced %d files, want the temporary file then the directory: %+v", len(syncs), syncs)
	}
	file, directory := syncs[0], syncs[1]
	if file.isDir || file.targetExists || file.content != "whole" || filepath.Dir(file.name) != dir {
		t.Errorf("first sync %+v: want the complete temporary file beside the target, before the rename", file)
	}
	if !directory.isDir || !directory.targetExists || filepath.Clean(directory.name) != dir {
		t.Errorf("second sync %+v: want the target's directory, after the rename", directory)
	}

	// A file that cannot be flushed is not renamed into place.
	syncs = nil
	full := errors.New("no space left on device")
	syncFile = func(f *os.File) error { return full }
	err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
	if !errors.Is(err, full) {
		t.Fatalf("error %v does not wrap the failed sync", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "whole" {
		t.Errorf("a write whose sync failed replaced the file with %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the failed write left %d files behind", len(entries)-1)
	}
}
