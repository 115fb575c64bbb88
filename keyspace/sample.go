package keyspace

import (
	"container/heap"
	"math"
	"math/rand/v2"
)

// sampler keeps a weighted random sample of rows (Efraimidis–Spirakis
// A-Res): each row gets the key u^(1/weight) and the rows with the largest
// keys stay, so a row that stands for more table rows is proportionally
// more likely to be kept. Every kept row then stands for the same share of
// the table.
type sampler struct {
	size int
	rng  *rand.Rand
	kept sampleHeap
	// totalWeight is the number of table rows the offered rows stand for.
	totalWeight float64
}

func newSampler(size int, seed uint64) sampler {
	return sampler{size: size, rng: rand.New(rand.NewPCG(seed, 0x62747669))}
}

func (s *sampler) offer(row SampledRow) {
	s.totalWeight += row.Weight
	// log(u)/w orders rows exactly as u^(1/w) does, without underflow.
	key := math.Log(1-s.rng.Float64()) / row.Weight
	if len(s.kept) < s.size {
		heap.Push(&s.kept, weightedRow{key: key, row: row})
		return
	}
	if key > s.kept[0].key {
		s.kept[0] = weightedRow{key: key, row: row}
		heap.Fix(&s.kept, 0)
	}
}

// absorb merges other's sample into s, as if s had been offered other's
// rows too: the rows with the largest keys of both stay.
func (s *sampler) absorb(other *sampler) {
	s.totalWeight += other.totalWeight
	for _, kept := range other.kept {
		if len(s.kept) < s.size {
			heap.Push(&s.kept, kept)
		} else if kept.key > s.kept[0].key {
			s.kept[0] = kept
			heap.Fix(&s.kept, 0)
		}
	}
}

// rows returns the sample in key order, each weighted by its share of the
// table.
func (s *sampler) rows() []SampledRow {
	rows := make([]SampledRow, len(s.kept))
	for i, kept := range s.kept {
		rows[i] = kept.row
		rows[i].Weight = s.totalWeight / float64(len(s.kept))
	}
	sortSample(rows)
	return rows
}

type weightedRow struct {
	key float64
	row SampledRow
}

// sampleHeap is a min-heap on the sampling key.
type sampleHeap []weightedRow

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(i, j int) bool { return h[i].key < h[j].key }
func (h sampleHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sampleHeap) Push(x any)        { *h = append(*h, x.(weightedRow)) }
func (h *sampleHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}
