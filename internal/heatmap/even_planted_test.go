package heatmap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/heatmap/heatmaptest"
	"github.com/btviz/btviz/internal/keyspace"
)

// Planted picture sizes: 24 key bands of 200 rows, as issue 31 describes
// the table whose picture even bucketing drew wrong.
const (
	plantedBands       = 24
	plantedRowsPerBand = 200
	plantedColumns     = 16
)

// plantedTable is a table whose rows draw a known picture: band b's rows
// are written in time column c in proportion to picture[b][c]. Within a
// band the rows are dealt to the columns alternately, so that the first
// and the second half of a band (by key) draw the same picture: the
// picture is the same at the band count and at twice it.
type plantedTable struct {
	rows [][]keyspace.Row // per band, in key order
	snap *keyspace.Snapshot
}

// plantedKeyForms are the key shapes the picture is planted under: a
// band prefix and a delimiter before random digits (the form),
// before sequential numbers, and under a shared first segment before hex.
// (Random digits with no delimiter at all are left out: the tree keeps
// such keys as ranges of tens of rows, so no cut can be closer than that
// to a band's edge; r is about 0.96 at the band count there.)
var plantedKeyForms = map[string]func(r *rand.Rand, band, row int) string{
	"NN#digits":   func(r *rand.Rand, band, _ int) string { return fmt.Sprintf("%02d#%06d", band, r.IntN(1_000_000)) },
	"NN#seq":      func(_ *rand.Rand, band, row int) string { return fmt.Sprintf("%02d#%05d", band, row) },
	"user#NN#hex": func(r *rand.Rand, band, _ int) string { return fmt.Sprintf("user#%02d#%08x", band, r.Uint32()) },
}

// plant draws a random picture from seed and plants it in a table built
// by the snapshot builder as a full scan builds it.
func plant(t testing.TB, seed uint64, keyOf func(r *rand.Rand, band, row int) string) plantedTable {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 31))
	var pt plantedTable
	var all []keyspace.Row
	span := 16 * 24 * time.Hour
	for b := range plantedBands {
		weights := make([]float64, plantedColumns)
		for c := range weights {
			weights[c] = r.Float64() * r.Float64() // a skewed picture: some bright cells
		}
		// The band's rows per column, by largest remainders.
		columns := dealColumns(weights, plantedRowsPerBand)
		keys := map[string]bool{}
		var band []keyspace.Row
		for len(band) < plantedRowsPerBand {
			key := keyOf(r, b, len(band))
			if keys[key] {
				continue
			}
			keys[key] = true
			band = append(band, keyspace.Row{Key: key})
		}
		slices.SortFunc(band, func(x, y keyspace.Row) int { return cmpString(x.Key, y.Key) })
		// Deal: the i-th row of the first half gets the column of dealt
		// slot 2i, the i-th of the second half slot 2i+1.
		half := plantedRowsPerBand / 2
		for i := range band {
			slot := 2 * i
			if i >= half {
				slot = 2*(i-half) + 1
			}
			c := columns[slot]
			at := heatmaptest.Epoch.Add(span*time.Duration(c)/plantedColumns + time.Duration(r.Int64N(int64(span/plantedColumns))))
			band[i].Cells = []keyspace.Cell{heatmaptest.CellAt("f", "q", at, 20)}
		}
		pt.rows = append(pt.rows, band)
		all = append(all, band...)
	}
	pt.snap = heatmaptest.BuildSnapshot(t, "planted", all, keyspace.Options{})
	return pt
}

// rowsInKeyOrder returns every planted row, in key order.
func (pt plantedTable) rowsInKeyOrder() []keyspace.Row {
	var out []keyspace.Row
	for _, band := range pt.rows {
		out = append(out, band...)
	}
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dealColumns lists n column numbers, column c about n·w[c]/Σw times, in
// column order.
func dealColumns(weights []float64, n int) []int {
	var total float64
	for _, w := range weights {
		total += w
	}
	var out []int
	acc := 0.0
	for c, w := range weights {
		acc += w
		for float64(len(out)) < math.Round(acc/total*float64(n)) {
			out = append(out, c)
		}
	}
	return out
}

// plantedCells is the picture the ideal buckets draw in m's time columns:
// ideal bucket i is band i (pieces 1) or half i%2 of band i/2 (pieces 2),
// and its cells fall into m's columns as the matrix puts cells there (the
// snapshot's time grid, rebinned).
func (pt plantedTable) plantedCells(snap *keyspace.Snapshot, m *Matrix, pieces int) [][]float64 {
	grid := newTimeGrid(snap, measure{})
	rebin := newRebinner(grid.buckets, m.Time.Columns)
	var out [][]float64
	for _, band := range pt.rows {
		size := len(band) / pieces
		for p := range pieces {
			dense := make([]float64, grid.buckets)
			for _, row := range band[p*size : (p+1)*size] {
				for _, cell := range row.Cells {
					dense[floorDivision(cell.Timestamp, grid.micros)-grid.first]++
				}
			}
			values := make([]float64, m.Time.Columns)
			rebin.apply(dense, values)
			out = append(out, values)
		}
	}
	return out
}

func floorDivision(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// pearson is the correlation of two equally long series.
func pearson(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}

// pictureCorrelation draws snap (the planted table, as some scan read
// it) in even buckets, pieces per band, and returns Pearson's r between
// the planted and the drawn cells, and the buckets' labels and rows for a
// failure message. It fails the test when the number of buckets is not
// the number asked for.
func (pt plantedTable) pictureCorrelation(t *testing.T, snap *keyspace.Snapshot, pieces int) (float64, []string) {
	t.Helper()
	rows := plantedBands * pieces
	m := mustBuild(t, snap, View{Bucketing: BucketEven, Rows: rows, Columns: plantedColumns})
	var labels []string
	for _, b := range m.Buckets {
		labels = append(labels, fmt.Sprintf("%s(%.0f)", b.Label, b.Stats.Rows))
	}
	if len(m.Buckets) != rows {
		t.Errorf("%d even buckets asked for, %d drawn: %v", rows, len(m.Buckets), labels)
		return 0, labels
	}
	planted := pt.plantedCells(snap, m, pieces)
	var want, got []float64
	for i := range m.Buckets {
		for c := range m.Time.Columns {
			want = append(want, planted[i][c])
			got = append(got, m.Value(i, c))
		}
	}
	return pearson(want, got), labels
}

// minPictureR is the least Pearson r between the planted and the drawn
// cells the planted-picture tests accept (issue 31 asks for 0.99). Over
// 300 seeds of every key form (go test ./heatmap -run
// TestEvenBucketingDrawsThePlantedPicture with BTVIZ_PLANTED_SEEDS=300),
// the least r was 1.0000 at the band count and 0.9986 at twice it (a half
// band cut a row or two from its middle), so the bound has a wide margin:
// no false failure was seen, and a cut a whole band off gives 0.81.
const minPictureR = 0.99

// TestEvenBucketingDrawsThePlantedPicture: even buckets of a full scan
// of 24 key bands of 200 rows each, whose write times hold a planted
// picture, give the picture back at the band count (one band a bucket)
// and at twice it: Pearson r ≥ [minPictureR] between the planted and the
// drawn cells, under every key form. Seeds 1 to 5, or as many as
// BTVIZ_PLANTED_SEEDS says; the slow tier runs the same through the
// emulator and the sampler at fresh seeds.
func TestEvenBucketingDrawsThePlantedPicture(t *testing.T) {
	seeds := 5
	if n, err := strconv.Atoi(os.Getenv("BTVIZ_PLANTED_SEEDS")); err == nil && n > 0 {
		seeds = n
	}
	least := map[int]float64{1: 1, 2: 1}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		for name, keyOf := range plantedKeyForms {
			pt := plant(t, seed, keyOf)
			for pieces := 1; pieces <= 2; pieces++ {
				r, labels := pt.pictureCorrelation(t, pt.snap, pieces)
				least[pieces] = min(least[pieces], r)
				if r < minPictureR {
					t.Errorf("seed %d, keys %s, %d buckets: r = %.4f between the planted and the drawn cells, want ≥ %v; buckets: %v",
						seed, name, plantedBands*pieces, r, minPictureR, labels)
				}
			}
		}
	}
	t.Logf("%d seeds × %d key forms: least r %.4f at %d buckets, %.4f at %d", seeds, len(plantedKeyForms), least[1], plantedBands, least[2], 2*plantedBands)
}

// TestEvenBucketsHoldEqualRows: where the tree's units do not line up
// with the cuts (32 or 30 prefixes of 150 or 160 rows cut into 24
// buckets of 200), every bucket still holds 200 rows within 1%: the cuts
// go down to the rows. Cutting at the nearest prefix boundary gave
// buckets of 150 and 300 rows.
func TestEvenBucketsHoldEqualRows(t *testing.T) {
	for _, prefixes := range []int{32, 30, 20} {
		r := rand.New(rand.NewPCG(3, uint64(prefixes)))
		var rows []keyspace.Row
		seen := map[string]bool{}
		for p := range prefixes {
			for n := 0; n < 4800/prefixes; {
				key := fmt.Sprintf("%02d#%05d", p, r.IntN(100_000))
				if seen[key] {
					continue
				}
				seen[key] = true
				n++
				rows = append(rows, keyspace.Row{Key: key, Cells: []keyspace.Cell{heatmaptest.CellAt("f", "q", heatmaptest.Epoch.Add(time.Duration(r.IntN(1000))*time.Minute), 10)}})
			}
		}
		snap := heatmaptest.BuildSnapshot(t, "prefixes", rows, keyspace.Options{})
		m := mustBuild(t, snap, View{Bucketing: BucketEven, Rows: 24, Columns: 8})
		if len(m.Buckets) != 24 {
			t.Errorf("%d prefixes: %d buckets, want 24", prefixes, len(m.Buckets))
		}
		for _, b := range m.Buckets {
			if math.Abs(b.Stats.Rows-200) > 2 {
				t.Errorf("%d prefixes: bucket %s holds %.0f rows, want 200 ± 2: %v", prefixes, b.Label, b.Stats.Rows, rowsOf(m))
				break
			}
		}
	}
}
