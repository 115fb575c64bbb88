package keyspace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/escape"
)

// FileFormat and FileVersion identify btviz snapshot files; see the
// Package documentation for the layout. A reader accepts every version up
// to its own and refuses newer ones.
//
// Version 2 added the table's hot tablets ("hot_tablets"). A snapshot
// without them is written as version 1, which every btviz reads; one with
// them as version 2, which a btviz that predates them refuses rather
// than show without them.
const (
	FileFormat  = "btviz-snapshot"
	FileVersion = 2
)

// fileEnvelope is the top-level JSON object of a snapshot or recording
// file.
type fileEnvelope struct {
	Format    string          `json:"format"`
	Version   int             `json:"version"`
	Snapshot  json.RawMessage `json:"snapshot,omitempty"`
	Recording json.RawMessage `json:"recording,omitempty"`
}

// Encode writes snap to w in the snapshot file format.
func Encode(w io.Writer, snap *Snapshot) error {
	body, err := json.Marshal(snap)
	if err != nil {
		return fmt.Errorf("encoding snapshot of table %s: %w", escape.Quote(snap.Table), err)
	}
	version := 1
	if snap.HotTablets != nil {
		version = FileVersion
	}
	return encodeEnvelope(w, fileEnvelope{Format: FileFormat, Version: version, Snapshot: body})
}

// encodeEnvelope writes a file's envelope, gzip-compressed.
func encodeEnvelope(w io.Writer, envelope fileEnvelope) error {
	zw := gzip.NewWriter(w)
	if err := json.NewEncoder(zw).Encode(envelope); err != nil {
		return fmt.Errorf("writing %s: %w", envelope.Format, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", envelope.Format, err)
	}
	return nil
}

// Save writes snap to path atomically ([atomicfile.Write]): a failed
// save never leaves a truncated snapshot behind.
func Save(path string, snap *Snapshot) error {
	if err := atomicfile.Write(path, func(w io.Writer) error { return Encode(w, snap) }); err != nil {
		return fmt.Errorf("saving snapshot: %w", err)
	}
	return nil
}

// ErrNotSnapshot is returned (wrapped) for a file that is not a btviz
// snapshot or recording; ErrTruncated for one that ends early;
// ErrNewerVersion for one written by a newer btviz; ErrDamaged for one
// whose values break the format's rules (a [*FieldError] names the
// value); ErrTooLarge for one that decompresses to more than the
// reader's limit.
var (
	ErrNotSnapshot  = errors.New("not a btviz snapshot")
	ErrTruncated    = errors.New("the file is truncated")
	ErrNewerVersion = errors.New("snapshot written by a newer btviz")
	ErrDamaged      = errors.New("damaged snapshot file")
	ErrTooLarge     = errors.New("snapshot file is too large")
)

// DefaultMaxFileBytes is how much a snapshot or recording file may
// decompress to unless a [Reader] says otherwise: far above what btviz
// writes (a few to a few tens of MB), low enough that a crafted file is
// refused in well under a second without the memory it asks for.
const DefaultMaxFileBytes int64 = 256 << 20

// Reader reads snapshot and recording files within a size limit.
type Reader struct {
	// MaxBytes is the most a file may decompress to (0:
	// [DefaultMaxFileBytes]).
	MaxBytes int64
	// LimitHint is what the refusal of a file over MaxBytes suggests to
	// raise it, e.g. "set BTVIZ_MAX_SNAPSHOT_MB=1024".
	LimitHint string
}

// Load reads a snapshot file written by [Save] with the default size
// limit; see [Reader.Load].
func Load(path string) (*Snapshot, error) { return Reader{}.Load(path) }

// Decode reads a snapshot in the file format from r with the default
// size limit; see [Reader.Decode].
func Decode(r io.Reader) (*Snapshot, error) { return Reader{}.Decode(r) }

// Load reads a snapshot file written by [Save]. Its errors name the file
// and say what to do: a foreign file, a truncated one, one from a newer
// btviz, a damaged one and one too large are told apart (see
// [ErrNotSnapshot], [ErrTruncated], [ErrNewerVersion], [ErrDamaged],
// [ErrTooLarge]). A file over the size limit is refused after one pass
// that keeps none of it in memory. A traffic recording is refused:
// [Reader.ReadFile] reads both.
func (r Reader) Load(path string) (*Snapshot, error) {
	var snap *Snapshot
	err := r.withFile(path, func(f io.Reader) (err error) {
		snap, err = r.Decode(f)
		return err
	})
	return snap, err
}

// withFile opens path and hands it to decode once it is known to be a
// file within the size limit; its errors name path.
func (r Reader) withFile(path string, decode func(io.Reader) error) error {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such file; give the path of a file that `btviz scan --out FILE` or `btviz record --out FILE` wrote", path)
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	if info.IsDir() {
		return fmt.Errorf("%s is a directory, not a snapshot file; give the file `btviz scan --out FILE` or `btviz record --out FILE` wrote", path)
	}
	if info.Size() == 0 && info.Mode().IsRegular() {
		return fmt.Errorf("%s is empty (0 bytes), so %w: btviz writes a file whole or not at all, so this is a copy that did not finish or another file; %s", path, ErrNotSnapshot, rescan)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	if err := r.checkSize(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if err := decode(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// gzipMagic starts every gzip stream, and so every snapshot file.
var gzipMagic = []byte{0x1f, 0x8b}

const rescan = "btviz scan --out FILE writes snapshots, btviz record --out FILE recordings"

// unzip checks that r is gzip-compressed and returns its decompressed
// stream.
func unzip(r io.Reader) (*gzip.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(gzipMagic))
	if len(head) == 0 && errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: it is empty (0 bytes); %s", ErrNotSnapshot, rescan)
	}
	if err != nil || !bytes.Equal(head, gzipMagic) {
		return nil, fmt.Errorf("%w: it is not gzip-compressed; %s", ErrNotSnapshot, rescan)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %v; %s", ErrNotSnapshot, err, rescan)
	}
	return zr, nil
}

func (r Reader) maxBytes() int64 {
	if r.MaxBytes > 0 {
		return r.MaxBytes
	}
	return DefaultMaxFileBytes
}

// checkSize decompresses f without keeping it (but its first bytes, to
// tell a snapshot from a recording), to refuse a file over the size limit
// before anything is allocated for it.
func (r Reader) checkSize(f io.Reader) error {
	zr, err := unzip(f)
	if err != nil {
		return err
	}
	defer zr.Close()
	head := headWriter{max: len(recordingHead)}
	n, err := io.Copy(&head, io.LimitReader(zr, r.maxBytes()+1))
	if n > r.maxBytes() {
		return r.tooLarge()
	}
	if err != nil {
		return truncated(head.bytes, err)
	}
	return nil
}

// recordingHead is how every recording file's JSON starts (see
// [encodeEnvelope]); a snapshot file's starts with FileFormat instead.
const recordingHead = `{"format":"` + RecordingFormat + `"`

// headWriter keeps the first max bytes written to it and discards the
// rest.
type headWriter struct {
	max   int
	bytes []byte
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.bytes); room > 0 {
		w.bytes = append(w.bytes, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// truncated is the error of a file that ends before its end, err the
// read's; head is the start of its decompressed JSON, which says whether
// it was a recording or a snapshot, and so what to do.
func truncated(head []byte, err error) error {
	if bytes.HasPrefix(head, []byte(recordingHead)) {
		return fmt.Errorf("%w (%v); the recording was cut off: btviz record writes whole files (every few seconds and at the end, each renamed into place once complete), "+
			"so a copy, a download or a full disk cut it short after; copy it again, or record the traffic again", ErrTruncated, err)
	}
	return fmt.Errorf("%w (%v); the scan or copy that wrote it did not finish: scan the table again", ErrTruncated, err)
}

func (r Reader) tooLarge() error {
	hint := r.LimitHint
	if hint == "" {
		hint = "a reader with a higher limit"
	}
	return fmt.Errorf("%w: it decompresses to more than %d MB, the limit; files btviz writes are far smaller, so it is probably not one; to read it anyway, %s",
		ErrTooLarge, r.maxBytes()>>20, hint)
}

// Decode reads a snapshot in the file format from r, holding at most the
// size limit of decompressed data, and checks every value the rest of
// btviz relies on (see [FieldError]). A traffic recording is refused:
// [Reader.DecodeFile] reads both.
func (r Reader) Decode(in io.Reader) (*Snapshot, error) {
	file, err := r.DecodeFile(in)
	if err != nil {
		return nil, err
	}
	if file.Snapshot == nil {
		return nil, fmt.Errorf("%w: it is a traffic recording (btviz record --out writes those); btviz open and --snapshot read it", ErrNotSnapshot)
	}
	return file.Snapshot, nil
}

// body reads a file's decompressed JSON, at most the size limit of it;
// reading to the end verifies the gzip trailer's checksum.
func (r Reader) body(in io.Reader) ([]byte, error) {
	zr, err := unzip(in)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	body, err := io.ReadAll(io.LimitReader(zr, r.maxBytes()+1))
	if int64(len(body)) > r.maxBytes() {
		return nil, r.tooLarge()
	}
	if err != nil {
		return nil, truncated(body, err)
	}
	return body, nil
}

// envelope reads a file's format and version and checks them.
func envelope(body []byte) (format string, err error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) && syntax.Offset >= int64(len(bytes.TrimRight(body, " \t\r\n"))) {
			return "", truncated(body, err)
		}
		if errors.As(err, &syntax) {
			return "", fmt.Errorf("%w: its JSON is broken at byte %d (%v); %s", ErrNotSnapshot, syntax.Offset, err, rescan)
		}
		return "", fmt.Errorf("%w: %v; %s", ErrNotSnapshot, err, rescan)
	}
	newest := 0
	switch head.Format {
	case FileFormat:
		newest = FileVersion
	case RecordingFormat:
		newest = RecordingVersion
	default:
		return "", fmt.Errorf("%w: format %s, want %q or %q; %s", ErrNotSnapshot, escape.Quote(head.Format), FileFormat, RecordingFormat, rescan)
	}
	if head.Version > newest {
		return "", fmt.Errorf("%w: %s version %d, this btviz reads up to version %d; upgrade btviz to open it", ErrNewerVersion, head.Format, head.Version, newest)
	}
	if head.Version < 1 {
		return "", fmt.Errorf("%w: format version %d is not valid", ErrNotSnapshot, head.Version)
	}
	return head.Format, nil
}

// unmarshal decodes a file's body into v, a pointer to a struct of the
// file's top-level fields, naming the value that cannot be decoded.
//
// A null item of a list is refused too: encoding/json would store it as
// a zero value (an empty row, a count of 0), drawn as if the file said so.
func unmarshal(body []byte, v any) error {
	located, err := decodeAt(body, v, "file")
	if located != nil {
		located.Path = strings.TrimPrefix(located.Path, "file.")
		return damaged(located)
	}
	return err
}

// decodeAt decodes body, the value at path of a file, into v, as
// [unmarshal] does: a value that cannot be decoded is named by a
// [*FieldError], anything else that is not JSON of v's type is err.
func decodeAt(body []byte, v any, path string) (located *FieldError, err error) {
	t := reflect.TypeOf(v).Elem()
	if err := json.Unmarshal(body, v); err != nil {
		if located = locateDecodeError(body, t, path); located == nil {
			return nil, fmt.Errorf("%w: %v; %s", ErrNotSnapshot, err, rescan)
		}
		return located, nil
	}
	if hasNullItem(body) {
		return locateNullItem(body, t, path), nil
	}
	return nil, nil
}

// damaged wraps the error naming a wrong value of a file.
func damaged(err error) error {
	return fmt.Errorf("%w: %w; it was changed or corrupted after btviz wrote it: scan the table (or record the traffic) again", ErrDamaged, err)
}
