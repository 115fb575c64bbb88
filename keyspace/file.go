package keyspace

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/btviz/btviz/internal/atomicfile"
)

// FileFormat and FileVersion identify btviz snapshot files; see the
// package documentation for the layout. A reader accepts every version up
// to its own and refuses newer ones.
const (
	FileFormat  = "btviz-snapshot"
	FileVersion = 1
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
		return fmt.Errorf("encoding snapshot of table %q: %w", snap.Table, err)
	}
	return encodeEnvelope(w, fileEnvelope{Format: FileFormat, Version: FileVersion, Snapshot: body})
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
// snapshot; ErrTruncated for one that ends early; ErrNewerVersion for one
// written by a newer btviz.
var (
	ErrNotSnapshot  = errors.New("not a btviz snapshot")
	ErrTruncated    = errors.New("snapshot file is truncated")
	ErrNewerVersion = errors.New("snapshot written by a newer btviz")
)

// Load reads a snapshot file written by [Save]. Its errors name the file
// and say what to do: a foreign file, a truncated one and one from a newer
// btviz are told apart (see [ErrNotSnapshot], [ErrTruncated],
// [ErrNewerVersion]).
func Load(path string) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening snapshot: %w", err)
	}
	defer f.Close()
	snap, err := Decode(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return snap, nil
}

// gzipMagic starts every gzip stream, and so every snapshot file.
var gzipMagic = []byte{0x1f, 0x8b}

// Decode reads a snapshot in the file format from r. A traffic recording
// is refused: [ReadFile] reads both.
func Decode(r io.Reader) (*Snapshot, error) {
	envelope, err := decodeEnvelope(r)
	if err != nil {
		return nil, err
	}
	if envelope.Format == RecordingFormat {
		return nil, fmt.Errorf("%w: it is a traffic recording (btviz record --out writes those); btviz open and --snapshot read it", ErrNotSnapshot)
	}
	return decodeSnapshot(envelope.Snapshot)
}

// decodeSnapshot decodes and validates a snapshot's JSON.
func decodeSnapshot(body json.RawMessage) (*Snapshot, error) {
	var snap Snapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		return nil, fmt.Errorf("%w: snapshot body: %v", ErrNotSnapshot, err)
	}
	if err := snap.validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotSnapshot, err)
	}
	return &snap, nil
}

// decodeEnvelope reads a snapshot or recording file's envelope from r,
// checking its format, version and checksum.
func decodeEnvelope(r io.Reader) (fileEnvelope, error) {
	var envelope fileEnvelope
	br := bufio.NewReader(r)
	head, err := br.Peek(len(gzipMagic))
	if err != nil || !bytes.Equal(head, gzipMagic) {
		return envelope, fmt.Errorf("%w: it is not gzip-compressed; btviz scan --out FILE writes snapshots", ErrNotSnapshot)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return envelope, fmt.Errorf("%w: %v; btviz scan --out FILE writes snapshots", ErrNotSnapshot, err)
	}
	defer zr.Close()
	if err := json.NewDecoder(zr).Decode(&envelope); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return envelope, fmt.Errorf("%w (%v); the scan or copy that wrote it did not finish: scan the table again", ErrTruncated, err)
		}
		return envelope, fmt.Errorf("%w: %v; btviz scan --out FILE writes snapshots", ErrNotSnapshot, err)
	}
	newest := 0
	switch envelope.Format {
	case FileFormat:
		newest = FileVersion
	case RecordingFormat:
		newest = RecordingVersion
	default:
		return envelope, fmt.Errorf("%w: format %q, want %q or %q; btviz scan --out FILE writes snapshots, btviz record --out FILE recordings",
			ErrNotSnapshot, envelope.Format, FileFormat, RecordingFormat)
	}
	if envelope.Version > newest {
		return envelope, fmt.Errorf("%w: %s version %d, this btviz reads up to version %d; upgrade btviz to open it", ErrNewerVersion, envelope.Format, envelope.Version, newest)
	}
	if envelope.Version < 1 {
		return envelope, fmt.Errorf("%w: format version %d is not valid", ErrNotSnapshot, envelope.Version)
	}
	// The gzip trailer carries a checksum; reading to the end verifies it.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return envelope, fmt.Errorf("%w (%v); scan the table again", ErrTruncated, err)
	}
	return envelope, nil
}

// validate checks the invariants the rest of btviz relies on.
func (s *Snapshot) validate() error {
	if s.Root == nil {
		return errors.New("it has no prefix tree")
	}
	if s.TimeBucketMicros <= 0 {
		return fmt.Errorf("time bucket width %d is not positive", s.TimeBucketMicros)
	}
	for i := 1; i < len(s.Ranges); i++ {
		if s.Ranges[i].Start < s.Ranges[i-1].Start {
			return fmt.Errorf("tablet ranges out of order at %d", i)
		}
	}
	var err error
	s.Root.Walk(func(n *Node) bool {
		for i := 1; i < len(n.Children) && err == nil; i++ {
			if n.Children[i].Start < n.Children[i-1].Start {
				err = fmt.Errorf("children of %v out of order", n.Prefix)
			}
		}
		return err == nil
	})
	return err
}
