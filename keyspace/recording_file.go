package keyspace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/btviz/btviz/internal/atomicfile"
)

// RecordingFormat and RecordingVersion identify btviz traffic recording
// files. A recording file is a gzip stream holding one JSON object,
//
//	{"format": "btviz-recording", "version": 1, "recording": {...}}
//
// where "recording" is the [Recording] with the JSON names of its struct
// tags: each table a [Snapshot] in the snapshot file's layout with its
// "traffic" field set. Readers refuse a newer version.
const (
	RecordingFormat  = "btviz-recording"
	RecordingVersion = 1
)

// EncodeRecording writes rec to w in the recording file format.
func EncodeRecording(w io.Writer, rec *Recording) error {
	body, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encoding the recording: %w", err)
	}
	return encodeEnvelope(w, fileEnvelope{Format: RecordingFormat, Version: RecordingVersion, Recording: body})
}

// SaveRecording writes rec to path atomically ([atomicfile.Write]).
func SaveRecording(path string, rec *Recording) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return EncodeRecording(w, rec) }); err != nil {
		return fmt.Errorf("saving the recording: %w", err)
	}
	return nil
}

// File is what a snapshot or recording file holds: one of Snapshot and
// Recording is set.
type File struct {
	Path      string
	Snapshot  *Snapshot
	Recording *Recording
}

// Snapshots returns the file's snapshots: the one of a snapshot file, or
// one per table of a recording.
func (f *File) Snapshots() []*Snapshot {
	if f.Recording != nil {
		return f.Recording.Tables
	}
	return []*Snapshot{f.Snapshot}
}

// ReadFile reads a snapshot file ([Save]) or a traffic recording
// ([SaveRecording]). Its errors name the file and say what to do, as
// [Load]'s do.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	file, err := DecodeFile(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	file.Path = path
	return file, nil
}

// DecodeFile reads a snapshot or a recording in its file format from r.
func DecodeFile(r io.Reader) (*File, error) {
	envelope, err := decodeEnvelope(r)
	if err != nil {
		return nil, err
	}
	if envelope.Format == FileFormat {
		snap, err := decodeSnapshot(envelope.Snapshot)
		if err != nil {
			return nil, err
		}
		return &File{Snapshot: snap}, nil
	}
	var rec Recording
	if err := json.Unmarshal(envelope.Recording, &rec); err != nil {
		return nil, fmt.Errorf("%w: recording body: %v", ErrNotSnapshot, err)
	}
	for i, snap := range rec.Tables {
		if snap == nil {
			return nil, fmt.Errorf("%w: recording.tables[%d] is null", ErrNotSnapshot, i)
		}
		if err := snap.validate(); err != nil {
			return nil, fmt.Errorf("%w: recording.tables[%d] (%s): %v", ErrNotSnapshot, i, Printable(snap.Table), err)
		}
		if snap.Traffic == nil {
			return nil, fmt.Errorf("%w: recording.tables[%d] (%s) has no traffic", ErrNotSnapshot, i, Printable(snap.Table))
		}
	}
	return &File{Recording: &rec}, nil
}
