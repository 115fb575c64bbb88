package emulator

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"
)

// A media store where one row grew past Bigtable's recommended row size and
// one cell past the recommended cell size, among ordinary rows.
const (
	mediaNormalRows = 10_000
	mediaOwners     = 600
	mediaWindow     = 30 * 24 * time.Hour
	// mediaChunkBytes × mediaChunks is the oversized row: 120 MiB
	// (125.8 MB), over the 100 MB recommendation, under the 256 MB limit.
	mediaChunkBytes = 1 << 20
	mediaChunks     = 120
	// mediaChunksPerPut bounds how much of the row one batch carries.
	mediaChunksPerPut = 8
	// mediaLargeCellBytes is the large cell: 12 MiB (12.6 MB), over the
	// 10 MB recommendation.
	mediaLargeCellBytes = 12 << 20

	mediaLargeRowKey  = "media#studio_ingest#raw-cam04-20261030"
	mediaLargeCellKey = "media#finance_team#q3-board-pack-scan"
)

var cameras = []string{"Pixel 9", "iPhone 16", "Galaxy S25", "X-T5"}

// largeRowAndCellScenario: a media store with one oversized row and one
// oversized cell (bad).
//
// Key: media#<owner>#<8 hex asset id> for 10,000 ordinary assets of 600
// owners (cells meta:json ~150 B and blob:thumb 0.5–2 KiB), plus
// media#studio_ingest#raw-cam04-20261030, a row holding a whole video as
// 120 cells blob:chunk-000 … blob:chunk-119 of 1 MiB each (125.8 MB), and
// media#finance_team#q3-board-pack-scan with one 12 MiB cell blob:data
// (12.6 MB). Rows: 10,002, cells over the last 30 days. All chunks carry
// the same pseudo-random MiB, so the generator holds one copy. Expects
// large-row at the video row and large-cell at the scan row.
func largeRowAndCellScenario() Scenario {
	w := lastWindow(mediaWindow)
	return Scenario{
		Name:        "large-row-and-cell",
		Description: "media store with a 126 MB row (120 × 1 MiB chunks) and a 12.6 MB cell among 10k small rows (bad)",
		KeyFormat:   "media#<owner>#<asset id>",
		Expect:      []string{kindLargeRow, kindLargeCell},
		Locations: []Location{
			{Kind: kindLargeRow, Key: mediaLargeRowKey, Row: true},
			{Kind: kindLargeCell, Key: mediaLargeCellKey, Row: true},
		},
		Families:  []string{"blob", "meta"},
		Rows:      mediaNormalRows + 2,
		TimeStart: w.start,
		TimeEnd:   w.end,
		generate: func(out rowSink) error {
			r := newRand("large-row-and-cell")
			owners := make([]string, mediaOwners)
			for i := range owners {
				owners[i] = fmt.Sprintf("%s_%s%d", pick(r, firstNames), pick(r, lastNames), r.IntN(1000))
			}
			seen := make(map[string]bool, mediaNormalRows)
			for i := range mediaNormalRows {
				switch i {
				case mediaNormalRows / 3:
					if err := putLargeRow(r, w, out); err != nil {
						return err
					}
				case 2 * mediaNormalRows / 3:
					if err := putLargeCell(r, w, out); err != nil {
						return err
					}
				}
				key := fmt.Sprintf("media#%s#%08x", pick(r, owners), r.Uint32())
				for seen[key] {
					key = fmt.Sprintf("media#%s#%08x", pick(r, owners), r.Uint32())
				}
				seen[key] = true
				at := randomTime(r, w.start, w.end)
				meta := fmt.Appendf(nil, `{"name":"IMG_%04d.jpg","mime":"image/jpeg","bytes":%d,"width":%d,"height":%d,"camera":"%s"}`,
					r.IntN(10000), 800_000+r.IntN(6_000_000), 4032, 3024, pick(r, cameras))
				if err := out.put(key, cell{"meta", "json", at, meta}, cell{"blob", "thumb", at, randomBytes(r, 512+r.IntN(1536))}); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// putLargeRow writes the oversized row a few chunks per put, all chunks
// sharing one buffer.
func putLargeRow(r *rand.Rand, w window, out rowSink) error {
	chunk := randomBytes(r, mediaChunkBytes)
	at := randomTime(r, w.start, w.end.Add(-time.Hour))
	meta := fmt.Appendf(nil, `{"name":"raw-cam04.mxf","mime":"application/mxf","bytes":%d,"chunks":%d,"chunk_bytes":%d}`,
		mediaChunks*mediaChunkBytes, mediaChunks, mediaChunkBytes)
	if err := out.put(mediaLargeRowKey, cell{"meta", "json", at, meta}); err != nil {
		return err
	}
	for first := 0; first < mediaChunks; first += mediaChunksPerPut {
		cells := make([]cell, 0, mediaChunksPerPut)
		for i := first; i < min(first+mediaChunksPerPut, mediaChunks); i++ {
			cells = append(cells, cell{"blob", fmt.Sprintf("chunk-%03d", i), at.Add(time.Duration(i) * time.Millisecond), chunk})
		}
		if err := out.put(mediaLargeRowKey, cells...); err != nil {
			return err
		}
	}
	return nil
}

// putLargeCell writes the row with one oversized cell.
func putLargeCell(r *rand.Rand, w window, out rowSink) error {
	at := randomTime(r, w.start, w.end)
	meta := fmt.Appendf(nil, `{"name":"Q3 board pack (scan).pdf","mime":"application/pdf","bytes":%d,"pages":212}`, mediaLargeCellBytes)
	return out.put(mediaLargeCellKey,
		cell{"meta", "json", at, meta},
		cell{"blob", "data", at, randomBytes(r, mediaLargeCellBytes)})
}

// randomBytes returns n pseudo-random bytes, standing in for compressed
// media: a ChaCha8 stream keyed from r, which fills megabytes far faster
// than drawing them from r eight bytes at a time.
func randomBytes(r *rand.Rand, n int) []byte {
	var seed [32]byte
	for i := 0; i < len(seed); i += 8 {
		binary.LittleEndian.PutUint64(seed[i:], r.Uint64())
	}
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(seed).Read(b) // never fails
	return b
}
