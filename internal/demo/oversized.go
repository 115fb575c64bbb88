package demo

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
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
// (12.6 MB). Rows: 10,002, cells over the last 30 days. Expects large-row
// at the video row and large-cell at the scan row.
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
		generate: func(put Put) error {
			r := newRand("large-row-and-cell")
			owners := make([]string, mediaOwners)
			for i := range owners {
				owners[i] = fmt.Sprintf("%s_%s%d", pick(r, firstNames), pick(r, lastNames), r.IntN(1000))
			}
			seen := make(map[string]bool, mediaNormalRows)
			for i := range mediaNormalRows {
				switch i {
				case mediaNormalRows / 3:
					if err := putLargeRow(r, w, put); err != nil {
						return err
					}
				case 2 * mediaNormalRows / 3:
					if err := putLargeCell(r, w, put); err != nil {
						return err
					}
				}
				key := fmt.Sprintf("media#%s#%08x", pick(r, owners), r.Uint32())
				for seen[key] {
					key = fmt.Sprintf("media#%s#%08x", pick(r, owners), r.Uint32())
				}
				seen[key] = true
				at := randomTime(r, w.start, w.end)
				meta := measure(`{"name":"IMG_%04d.jpg","mime":"image/jpeg","bytes":%d,"width":%d,"height":%d,"camera":"%s"}`,
					r.IntN(10000), 800_000+r.IntN(6_000_000), 4032, 3024, pick(r, cameras))
				if err := put(key, cellAt("meta", "json", at, meta), cellAt("blob", "thumb", at, randomBytes(r, 512+r.IntN(1536)))); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// putLargeRow puts the oversized row: its metadata and the video's
// chunks, one cell each.
func putLargeRow(r *rand.Rand, w window, put Put) error {
	chunk := randomBytes(r, mediaChunkBytes)
	at := randomTime(r, w.start, w.end.Add(-time.Hour))
	meta := measure(`{"name":"raw-cam04.mxf","mime":"application/mxf","bytes":%d,"chunks":%d,"chunk_bytes":%d}`,
		mediaChunks*mediaChunkBytes, mediaChunks, mediaChunkBytes)
	cells := make([]keyspace.Cell, 0, 1+mediaChunks)
	cells = append(cells, cellAt("meta", "json", at, meta))
	for i := range mediaChunks {
		cells = append(cells, cellAt("blob", fmt.Sprintf("chunk-%03d", i), at.Add(time.Duration(i)*time.Millisecond), chunk))
	}
	return put(mediaLargeRowKey, cells...)
}

// putLargeCell puts the row with one oversized cell.
func putLargeCell(r *rand.Rand, w window, put Put) error {
	at := randomTime(r, w.start, w.end)
	meta := measure(`{"name":"Q3 board pack (scan).pdf","mime":"application/pdf","bytes":%d,"pages":212}`, mediaLargeCellBytes)
	return put(mediaLargeCellKey,
		cellAt("meta", "json", at, meta),
		cellAt("blob", "data", at, randomBytes(r, mediaLargeCellBytes)))
}

// randomBytes stands for n pseudo-random bytes (compressed media): it
// draws from r the 32-byte key of the stream such bytes come from, so
// that what follows draws the same numbers, and returns the size n.
func randomBytes(r *rand.Rand, n int) int {
	for range 4 {
		r.Uint64()
	}
	return n
}
