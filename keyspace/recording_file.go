package keyspace

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

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
// ([SaveRecording]) with the default size limit; see [Reader.ReadFile].
func ReadFile(path string) (*File, error) { return Reader{}.ReadFile(path) }

// DecodeFile reads a snapshot or a recording in its file format from r
// with the default size limit; see [Reader.DecodeFile].
func DecodeFile(r io.Reader) (*File, error) { return Reader{}.DecodeFile(r) }

// ReadFile reads a snapshot file ([Save]) or a traffic recording
// ([SaveRecording]). Its errors name the file and say what to do, as
// [Reader.Load]'s do.
func (r Reader) ReadFile(path string) (*File, error) {
	var file *File
	err := r.withFile(path, func(f io.Reader) (err error) {
		file, err = r.DecodeFile(f)
		return err
	})
	if err != nil {
		return nil, err
	}
	file.Path = path
	return file, nil
}

// maxFileTables bounds the tables of a recording.
const maxFileTables = 1 << 12

// DecodeFile reads a snapshot or a recording in its file format from r,
// holding at most the size limit of decompressed data, and checks every
// value the rest of btviz relies on: a file that breaks a rule is refused
// with [ErrDamaged] and a [*FieldError] naming the value.
func (r Reader) DecodeFile(in io.Reader) (*File, error) {
	body, err := r.body(in)
	if err != nil {
		return nil, err
	}
	format, err := envelope(body)
	if err != nil {
		return nil, err
	}
	if format == FileFormat {
		var file struct {
			Snapshot *Snapshot `json:"snapshot"`
		}
		if err := unmarshal(body, &file); err != nil {
			return nil, err
		}
		if file.Snapshot == nil {
			return nil, damaged(&FieldError{Path: "snapshot", Problem: "missing: the file holds no snapshot"})
		}
		if err := file.Snapshot.validate("snapshot"); err != nil {
			return nil, damaged(err)
		}
		return &File{Snapshot: file.Snapshot}, nil
	}
	var file struct {
		Recording *Recording `json:"recording"`
	}
	if err := unmarshal(body, &file); err != nil {
		return nil, err
	}
	rec := file.Recording
	switch {
	case rec == nil:
		return nil, damaged(&FieldError{Path: "recording", Problem: "missing: the file holds no recording"})
	case rec.Duration < 0:
		return nil, damaged(&FieldError{Path: "recording.duration_ns", Problem: fmt.Sprintf("%d is negative", rec.Duration)})
	case rec.Undecoded < 0:
		return nil, damaged(&FieldError{Path: "recording.undecoded", Problem: fmt.Sprintf("%d is negative", rec.Undecoded)})
	case len(rec.Tables) > maxFileTables:
		return nil, damaged(&FieldError{Path: "recording.tables", Problem: fmt.Sprintf("%d tables, more than %d", len(rec.Tables), maxFileTables)})
	}
	for i, snap := range rec.Tables {
		path := "recording.tables[" + strconv.Itoa(i) + "]"
		if snap == nil {
			return nil, damaged(&FieldError{Path: path, Problem: "null where a table belongs"})
		}
		if err := snap.validate(path); err != nil {
			return nil, damaged(err)
		}
		if snap.Traffic == nil {
			return nil, damaged(&FieldError{Path: path + ".traffic", Problem: "missing: a recorded table has traffic"})
		}
	}
	return &File{Recording: rec}, nil
}
