package keyspace

import (
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
	// strata keep a reservoir per coarse key form beside kept, so that a
	// small dataset is not left with a handful of rows (see [stratumOf]);
	// memo is the stratum of the last row offered.
	strata strata
	memo   stratumMemo
}

func newSampler(size int, seed uint64) sampler {
	return sampler{size: size, rng: rand.New(rand.NewPCG(seed, 0x62747669))}
}

func (s *sampler) offer(row SampledRow) {
	s.totalWeight += row.Weight
	// log(u)/w orders rows exactly as u^(1/w) does, without underflow.
	key := math.Log(1-s.rng.Float64()) / row.Weight
	w := weightedRow{key: key, row: row}
	s.keep(w)
	s.strata.offer(s.memo.of(string(row.Key)), w)
}

// keep adds w to the sample if its key is among the largest.
func (s *sampler) keep(w weightedRow) {
	if len(s.kept) < s.size {
		s.kept = append(s.kept, w)
		s.kept.up(len(s.kept) - 1)
		return
	}
	if w.key > s.kept[0].key {
		s.kept[0] = w
		s.kept.down(0)
	}
}

// resize changes the sample's size; a smaller one keeps the rows with
// the largest keys, which is the sample a sampler of that size would have
// kept.
func (s *sampler) resize(size int) {
	s.size = size
	for len(s.kept) > size {
		last := len(s.kept) - 1
		s.kept[0] = s.kept[last]
		s.kept = s.kept[:last]
		s.kept.down(0)
	}
}

// absorb merges other's sample into s, as if s had been offered other's
// rows too: the rows with the largest keys of both stay.
func (s *sampler) absorb(other *sampler) {
	s.totalWeight += other.totalWeight
	for _, kept := range other.kept {
		s.keep(kept)
	}
	s.strata.absorb(&other.strata)
}

// rows returns the sample in key order, each weighted by its share of the
// table: the uniform reservoir's rows, except that a stratum the
// reservoir holds fewer rows of than its own reservoir does is drawn from
// its own, each of its rows standing for an equal share of the
// stratum's rows, and the reservoir's other rows for an equal share of
// the rest.
func (s *sampler) rows() []SampledRow {
	names := make([]string, len(s.kept))
	inKept := map[string]int{}
	for i, kept := range s.kept {
		names[i] = stratumOf(string(kept.row.Key))
		if st := s.strata.byName[names[i]]; st != nil {
			inKept[names[i]]++
		}
	}
	replaced := map[string]*stratum{}
	var replacedWeight float64
	replacedKept := 0
	for name, st := range s.strata.byName {
		if len(st.kept) > inKept[name] {
			replaced[name] = st
			replacedWeight += st.weight
			replacedKept += inKept[name]
		}
	}
	rows := make([]SampledRow, 0, len(s.kept))
	if rest := len(s.kept) - replacedKept; rest > 0 {
		weight := max(s.totalWeight-replacedWeight, 0) / float64(rest)
		for i, kept := range s.kept {
			if replaced[names[i]] != nil {
				continue
			}
			row := kept.row
			row.Weight = weight
			rows = append(rows, row)
		}
	}
	for _, st := range replaced {
		weight := st.weight / float64(len(st.kept))
		for _, kept := range st.kept {
			row := kept.row
			row.Weight = weight
			rows = append(rows, row)
		}
	}
	sortSample(rows)
	return rows
}

type weightedRow struct {
	key float64
	row SampledRow
}

// sampleHeap is a min-heap on the sampling key, typed rather than
// container/heap so that keeping a row does not box it.
type sampleHeap []weightedRow

func (h sampleHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].key <= h[i].key {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h sampleHeap) down(i int) {
	for {
		smallest, left, right := i, 2*i+1, 2*i+2
		if left < len(h) && h[left].key < h[smallest].key {
			smallest = left
		}
		if right < len(h) && h[right].key < h[smallest].key {
			smallest = right
		}
		if smallest == i {
			return
		}
		h[i], h[smallest] = h[smallest], h[i]
		i = smallest
	}
}
