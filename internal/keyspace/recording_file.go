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
// Recording is set. Damaged lists the tables of a recording that were
// left out because their values break the format's rules: the other
// tables are read all the same.
type File struct {
	Path      string
	Snapshot  *Snapshot
	Recording *Recording
	Damaged   []DamagedTable
}

// DamagedTable is a table of a recording file that was left out: its
// place in the file, its name as far as it could be read, and why (an
// error wrapping [ErrDamaged] and a [*FieldError]).
type DamagedTable struct {
	Index int
	Table string
	Err   error
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
		file.Snapshot.cutTexts()
		if err := file.Snapshot.validate("snapshot"); err != nil {
			return nil, damaged(err)
		}
		file.Snapshot.placeHotTablets()
		return &File{Snapshot: file.Snapshot}, nil
	}
	var file struct {
		Recording *recordingBody `json:"recording"`
	}
	if err := unmarshal(body, &file); err != nil {
		return nil, err
	}
	if file.Recording == nil {
		return nil, damaged(&FieldError{Path: "recording", Problem: "missing: the file holds no recording"})
	}
	rec := &file.Recording.Recording
	switch {
	case rec.Duration < 0:
		return nil, damaged(&FieldError{Path: "recording.duration_ns", Problem: fmt.Sprintf("%d is negative", rec.Duration)})
	case rec.Undecoded < 0:
		return nil, damaged(&FieldError{Path: "recording.undecoded", Problem: fmt.Sprintf("%d is negative", rec.Undecoded)})
	case rec.TooLarge < 0:
		return nil, damaged(&FieldError{Path: "recording.too_large", Problem: fmt.Sprintf("%d is negative", rec.TooLarge)})
	case len(file.Recording.Tables) > maxFileTables:
		return nil, damaged(&FieldError{Path: "recording.tables", Problem: fmt.Sprintf("%d tables, more than %d", len(file.Recording.Tables), maxFileTables)})
	}
	for _, l := range []struct {
		name string
		list *TablesLeftOut
	}{{"not_found", rec.NotFound}, {"over_limit", rec.OverLimit}} {
		if err := leftOut("recording."+l.name, l.list); err != nil {
			return nil, damaged(err)
		}
	}
	rec.Upstream = cutText(rec.Upstream)
	out := &File{Recording: rec}
	for i, raw := range file.Recording.Tables {
		path := "recording.tables[" + strconv.Itoa(i) + "]"
		snap, err := decodeTable(raw, path)
		if err != nil {
			out.Damaged = append(out.Damaged, DamagedTable{Index: i, Table: tableName(raw), Err: err})
			continue
		}
		if !rec.Complete {
			// Files written before the tables said so themselves.
			if snap.Scan.Complete {
				snap.Scan.Complete, snap.Scan.Incomplete = false, IncompleteRecording
			}
			snap.Traffic.Incomplete = firstNonEmpty(snap.Traffic.Incomplete, IncompleteRecording)
		}
		rec.Tables = append(rec.Tables, snap)
	}
	if len(rec.Tables) == 0 && len(out.Damaged) > 0 {
		return nil, out.Damaged[0].Err // nothing left to read
	}
	return out, nil
}

// recordingBody is a recording as its file holds it, each table still
// JSON, so that a damaged table costs that table only.
type recordingBody struct {
	// Tables comes first: it is the field a file's "tables" goes to, as
	// for encoding/json, whose rule (the shallower field wins) the
	// reader's search for a damaged value does not know.
	Tables rawTables `json:"tables"`
	Recording
}

// rawTables holds the tables of a recording file undecoded. It decodes
// itself, so that the file's own checks (a value of the wrong type, a
// null in a list) leave its items to [decodeTable].
type rawTables []json.RawMessage

// UnmarshalJSON keeps the items of a JSON array as they are.
func (t *rawTables) UnmarshalJSON(b []byte) error {
	return json.Unmarshal(b, (*[]json.RawMessage)(t))
}

// decodeTable decodes and checks one table of a recording file, at path.
func decodeTable(raw json.RawMessage, path string) (*Snapshot, error) {
	if isNull(raw) {
		return nil, damaged(&FieldError{Path: path, Problem: "null where a table belongs"})
	}
	var snap Snapshot
	located, err := decodeAt(raw, &snap, path)
	if located != nil {
		return nil, damaged(located)
	}
	if err != nil {
		return nil, err
	}
	snap.cutTexts()
	if err := snap.validate(path); err != nil {
		return nil, damaged(err)
	}
	snap.placeHotTablets()
	if snap.Traffic == nil {
		return nil, damaged(&FieldError{Path: path + ".traffic", Problem: "missing: a recorded table has traffic"})
	}
	return &snap, nil
}

// tableName reads the name of a table of a recording file that did not
// decode, for the message that says it was left out ("" if even that
// fails).
func tableName(raw json.RawMessage) string {
	var named struct {
		Table string `json:"table"`
	}
	json.Unmarshal(raw, &named)
	return cutText(named.Table)
}

// leftOut checks a count of calls on tables a recording left out.
func leftOut(path string, l *TablesLeftOut) error {
	if l == nil {
		return nil
	}
	if l.Calls < 0 || l.Calls > maxFileCount {
		return problem(path+".calls", "%d is not a count between 0 and %g", l.Calls, float64(maxFileCount))
	}
	if len(l.Tables) > maxFileRowList {
		return problem(path+".tables", "%d tables, more than %d", len(l.Tables), maxFileRowList)
	}
	for i := range l.Tables {
		t := &l.Tables[i]
		if err := counts(path+".tables["+strconv.Itoa(i)+"]", field{"calls", t.Calls}, field{"error", t.Error}); err != nil {
			return err
		}
		t.Table = cutText(t.Table)
	}
	return nil
}
