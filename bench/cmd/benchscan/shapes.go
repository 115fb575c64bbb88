package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/emulator/cloudlike"
	"github.com/btviz/btviz/internal/sampler"
	"github.com/btviz/btviz/internal/tableshape"
)

// shapeBounds are issue 26's marks: the worst top-level prefix share
// error a sample may make at each fraction, and the share of the table
// the server may read at 1%.
var shapeBounds = map[float64]float64{0.001: 1.5, 0.01: 0.5, 0.1: 0.2}

const maxShareReadAtOnePercent = 0.015

// runRecord is one scan's figures as -runs writes them.
type runRecord struct {
	Seed      uint64  `json:"seed"`
	Draw      int     `json:"draw"`
	Family    string  `json:"family"`
	Names     bool    `json:"names"`
	Rows      int     `json:"rows"`
	Prefixes  int     `json:"prefixes"`
	Fraction  float64 `json:"fraction"`
	Worst     float64 `json:"worst_pp"`
	WorstAt   string  `json:"worst_at"`
	Nodes     int     `json:"nodes"`
	Covered   int     `json:"covered"`
	ReadShare float64 `json:"read_share"`
	Seconds   float64 `json:"seconds"`
	Width     float64 `json:"width"`
}

func (r shapeRun) record() runRecord {
	return runRecord{Seed: r.shape.Seed, Draw: r.draw, Family: string(r.shape.Family), Names: r.shape.HasNames(), Rows: r.shape.TotalRows(),
		Prefixes: len(r.shape.Prefixes), Fraction: r.fraction, Worst: r.worst, WorstAt: r.worstAt, Nodes: r.nodes, Covered: r.covered,
		ReadShare: r.readShare, Seconds: r.seconds, Width: r.width}
}

// shapeRun is one sampled scan of one shape.
type shapeRun struct {
	shape tableshape.Shape
	// draw numbers the scan's sample among the shape's (-draws): its
	// sample seed is the shape's seed plus draw.
	draw           int
	fraction       float64
	worst          float64
	worstAt        string
	nodes, covered int
	readShare      float64
	seconds        float64
	width          float64
}

// shapes draws count table shapes of 0.6–1M rows (internal/tableshape,
// the families in turn), loads each into an in-process emulator that
// answers SampleRowKeys with the shape's tablets (internal/cloudlike),
// samples it at each fraction and prints a table of families ×
// fractions: the worst top-level share error, how often the per-prefix
// 95% intervals held the truth, and the rows read at the server.
func shapes(args []string) error {
	flags := flag.NewFlagSet("shapes", flag.ContinueOnError)
	count := flags.Int("count", 32, "shapes to draw")
	first := flags.Uint64("seed", 0, "first shape's seed (default: drawn, and printed)")
	minRows := flags.Int("min-rows", tableshape.MinRows, "fewest rows a shape holds")
	maxRows := flags.Int("max-rows", tableshape.MaxRows, "most rows a shape holds")
	fractionList := flags.String("fractions", "0.001,0.01,0.1", "fractions to sample each shape at")
	runsFile := flags.String("runs", "", "file to write each scan's figures to, one JSON object a line")
	seedList := flags.String("seeds", "", "comma-separated seeds of the shapes to draw, in place of -seed and -count (to replay some shapes of a run)")
	withNames := flags.String("names", "any", "which shapes to keep of those drawn: any, only (shapes with a prefix of names, tableshape.Shape.HasNames) or none; -count counts the kept")
	draws := flags.Int("draws", 1, "samples of each shape at each fraction, with sample seeds the shape's seed, +1, +2, …: more than 1 measures how often a shape's draws meet the bounds (a miss of the draw against one of the code)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	var fractions []float64
	for _, f := range strings.Split(*fractionList, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return fmt.Errorf("-fractions %s: %w", *fractionList, err)
		}
		fractions = append(fractions, v)
	}
	if *first == 0 {
		*first = uint64(time.Now().UnixNano()) >> 24
	}
	keep := map[string]func(tableshape.Shape) bool{
		"any":  func(tableshape.Shape) bool { return true },
		"only": tableshape.Shape.HasNames,
		"none": func(s tableshape.Shape) bool { return !s.HasNames() },
	}[*withNames]
	if keep == nil {
		return fmt.Errorf("-names %s: give any, only or none", *withNames)
	}
	var seeds []uint64
	for seed := *first; len(seeds) < *count; seed++ {
		if keep(tableshape.ForSeed(seed, *minRows, *maxRows)) {
			seeds = append(seeds, seed)
		}
	}
	if *seedList != "" {
		seeds = nil
		for _, f := range strings.Split(*seedList, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				return fmt.Errorf("-seeds %s: %q is not a seed; give whole numbers, such as 64110814,64110822", *seedList, f)
			}
			seeds = append(seeds, v)
		}
		fmt.Fprintf(os.Stderr, "shapes: the %d shapes of seeds %s\n", len(seeds), *seedList)
	} else {
		fmt.Fprintf(os.Stderr, "shapes: %d shapes from seed %d (replay: benchscan shapes -seed %d -count %d -names %s)\n", *count, *first, *first, *count, *withNames)
	}
	if len(seeds) == 0 {
		return fmt.Errorf("-count %d draws no shape: give at least 1, or -seeds", *count)
	}
	if *draws < 1 {
		return fmt.Errorf("-draws %d: give at least 1 sample of each shape", *draws)
	}
	var runs []shapeRun
	var out *json.Encoder
	if *runsFile != "" {
		f, err := os.Create(*runsFile)
		if err != nil {
			return err
		}
		defer f.Close()
		out = json.NewEncoder(f)
	}
	for _, seed := range seeds {
		shape := tableshape.ForSeed(seed, *minRows, *maxRows)
		shapeRuns, err := sampleShape(shape, fractions, *draws)
		if err != nil {
			return fmt.Errorf("%s: %w", shape, err)
		}
		runs = append(runs, shapeRuns...)
		if out != nil {
			for _, r := range shapeRuns {
				if err := out.Encode(r.record()); err != nil {
					return err
				}
			}
		}
	}
	broke := printShapes(runs, fractions, seeds, *draws)
	if *draws > 1 {
		printDraws(runs, fractions, *draws)
	}
	if broke > 0 && *draws > 1 {
		return fmt.Errorf("FAIL: %d bounds broken in the %d draws of each shape without names", broke, *draws)
	}
	if broke > 0 {
		return fmt.Errorf("FAIL: %d bounds broken by shapes without names", broke)
	}
	if !slices.ContainsFunc(runs, func(r shapeRun) bool { return !r.shape.HasNames() }) {
		fmt.Println("PASS: no shape without names to hold to the bounds")
		return nil
	}
	fmt.Println("PASS: every shape without names within every bound")
	return nil
}

// sampleShape loads shape behind a Cloud-like emulator and samples it at
// each fraction draws times, with sample seeds from the shape's.
func sampleShape(shape tableshape.Shape, fractions []float64, draws int) ([]shapeRun, error) {
	ctx := context.Background()
	counter := &cloudlike.Counter{}
	options := append([]grpc.ServerOption{grpc.MaxRecvMsgSize(256 << 20), grpc.MaxSendMsgSize(256 << 20)},
		cloudlike.ServerOptions(cloudlike.Layout{Sizes: shape.TabletSizes}, counter)...)
	srv, err := bttest.NewServer("127.0.0.1:0", options...)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	conn, err := connect.Open(ctx, connect.Target{Project: connect.EmulatorProject, Instance: connect.EmulatorInstance, EmulatorHost: srv.Addr})
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	began := time.Now()
	if err := loadShape(ctx, conn, shape); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "%s: loaded in %s\n", shape, time.Since(began).Round(time.Second))
	truth := shape.Truth()
	var runs []shapeRun
	for _, fraction := range fractions {
		for draw := range draws {
			counter.Reset()
			began := time.Now()
			snap, err := sampler.Scan(ctx, conn, "t", sampler.Options{Fraction: fraction, Seed: shape.Seed + uint64(draw)})
			if err != nil {
				return nil, err
			}
			acc := tableshape.Judge(snap, truth)
			run := shapeRun{shape: shape, draw: draw, fraction: fraction, worst: acc.Worst, worstAt: acc.WorstPrefix, nodes: acc.Nodes, covered: acc.Covered,
				readShare: float64(counter.Rows()) / float64(shape.TotalRows()), seconds: time.Since(began).Seconds(), width: acc.Width}
			drawn := ""
			if draws > 1 {
				drawn = fmt.Sprintf(" (draw %d)", draw)
			}
			fmt.Fprintf(os.Stderr, "  %g%s: worst %.3f pp at %s; %d/%d intervals hold the truth; the server read %.3f%% of the rows; %.2fs\n",
				fraction, drawn, run.worst, run.worstAt, run.covered, run.nodes, 100*run.readShare, run.seconds)
			runs = append(runs, run)
		}
	}
	return runs, nil
}

// loadShape creates table "t" and writes the shape's rows, one cell each.
func loadShape(ctx context.Context, conn *connect.Conn, shape tableshape.Shape) error {
	if err := conn.Admin.CreateTable(ctx, "t"); err != nil {
		return err
	}
	if err := conn.Admin.CreateColumnFamily(ctx, "t", "m"); err != nil {
		return err
	}
	tbl := conn.Client.Open("t")
	const chunk = 5000
	var keys []string
	var muts []*bigtable.Mutation
	flush := func() error {
		if len(keys) == 0 {
			return nil
		}
		errs, err := tbl.ApplyBulk(ctx, keys, muts)
		for _, e := range errs {
			if e != nil && err == nil {
				err = e
			}
		}
		keys, muts = keys[:0], muts[:0]
		return err
	}
	for row := range shape.Rows() {
		mut := bigtable.NewMutation()
		mut.Set("m", "v", bigtable.Timestamp(1_704_067_200_000_000), make([]byte, row.ValueBytes))
		keys, muts = append(keys, row.Key), append(muts, mut)
		if len(keys) == chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// printShapes prints the table the README quotes and the shapes that
// broke a bound, and returns how many bounds the shapes without names
// broke. Shapes with a prefix of names (tableshape.Shape.HasNames) are
// measured and listed apart: the sampler does not meet the bounds on
// them (see the README's accuracy section). With draws > 1 every draw is
// a scan of the table, and its rows count scans, not shapes.
func printShapes(runs []shapeRun, fractions []float64, seeds []uint64, draws int) int {
	fmt.Printf("\n### Accuracy on generated shapes\n\n")
	drawn := fmt.Sprintf("seeds %d–%d", seeds[0], seeds[len(seeds)-1])
	if !slices.IsSorted(seeds) || int(seeds[len(seeds)-1]-seeds[0]) != len(seeds)-1 {
		var listed []string
		for _, seed := range seeds {
			listed = append(listed, strconv.FormatUint(seed, 10))
		}
		drawn = "seeds " + strings.Join(listed, ",")
	}
	fmt.Printf("%d shapes (internal/tableshape, %s, 0.6–1M rows each), each behind an emulator answering SampleRowKeys with its tablets\n",
		len(seeds), drawn)
	sampled, counted, within := "with the shape's seed", "shapes", "shapes within"
	if draws > 1 {
		sampled, counted, within = fmt.Sprintf("%d times each, with sample seeds the shape's seed to seed+%d (every row counts scans: a shape's draws each)", draws, draws-1), "scans", "scans within"
	}
	fmt.Printf("(internal/cloudlike), sampled at %v %s. Worst error: the largest error of a top-level prefix's share of the\n", fractions, sampled)
	fmt.Printf("rows, per shape; intervals: top-level prefixes whose 95%% interval held the true rows; half-width: a shape's median\n")
	fmt.Printf("interval half-width over its prefixes' true rows, the median over shapes; read: rows read at the server.\n\n")
	fmt.Printf("| %s | fraction | worst error: median | worst error: 90th pct | worst error: max | bound | %s | intervals holding the truth | interval half-width | rows read: max |\n", counted, within)
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	groups := []struct {
		name string
		in   func(shapeRun) bool
	}{
		{"without names", func(r shapeRun) bool { return !r.shape.HasNames() }},
		{"with names", func(r shapeRun) bool { return r.shape.HasNames() }},
	}
	for _, family := range familyNames() {
		groups = append(groups, struct {
			name string
			in   func(shapeRun) bool
		}{family, func(r shapeRun) bool { return string(r.shape.Family) == family }})
	}
	for _, g := range groups {
		for _, fraction := range fractions {
			var worst, widths []float64
			var within, nodes, covered int
			var read float64
			for _, r := range runs {
				if r.fraction != fraction || !g.in(r) {
					continue
				}
				worst = append(worst, r.worst)
				widths = append(widths, r.width)
				if r.worst <= shapeBounds[fraction] {
					within++
				}
				nodes += r.nodes
				covered += r.covered
				read = max(read, r.readShare)
			}
			if len(worst) == 0 {
				continue
			}
			slices.Sort(worst)
			slices.Sort(widths)
			fmt.Printf("| %s (%d) | %s | %.3f pp | %.3f pp | %.3f pp | %.1f pp | %d/%d | %.1f%% (%d/%d) | ±%.1f%% | %.3f%% |\n", g.name, len(worst), percent(fraction),
				worst[len(worst)/2], worst[(len(worst)*9)/10], worst[len(worst)-1], shapeBounds[fraction], within, len(worst),
				100*float64(covered)/float64(max(nodes, 1)), covered, nodes, 100*widths[len(widths)/2], 100*read)
		}
	}
	fmt.Println()
	var broke, known []string
	note := func(r shapeRun, text string) {
		if r.shape.HasNames() {
			known = append(known, text)
		} else {
			broke = append(broke, text)
		}
	}
	for _, r := range runs {
		drawn := ""
		if r.draw > 0 {
			drawn = fmt.Sprintf(", sample seed %d", r.shape.Seed+uint64(r.draw))
		}
		if r.worst > shapeBounds[r.fraction] {
			note(r, fmt.Sprintf("- %s at %s%s: %.3f pp at %s (bound %.1f pp)", r.shape, percent(r.fraction), drawn, r.worst, r.worstAt, shapeBounds[r.fraction]))
		}
		if r.fraction == 0.01 && r.readShare > maxShareReadAtOnePercent {
			note(r, fmt.Sprintf("- %s at 1%%%s: the server read %.3f%% of the rows (bound %.1f%%)", r.shape, drawn, 100*r.readShare, 100*maxShareReadAtOnePercent))
		}
	}
	// More rows never worse: over the shapes without names, the mean
	// worst error falls as the fraction grows.
	mean := map[float64]float64{}
	for _, fraction := range fractions {
		var sum float64
		n := 0
		for _, r := range runs {
			if r.fraction == fraction && !r.shape.HasNames() {
				sum += r.worst
				n++
			}
		}
		if n > 0 {
			mean[fraction] = sum / float64(n)
		}
	}
	for i := 1; i < len(fractions); i++ {
		lo, okLo := mean[fractions[i-1]]
		hi, okHi := mean[fractions[i]]
		if !okLo || !okHi {
			continue // no shape without names (a run of -seeds of names)
		}
		fmt.Printf("Mean worst error without names: %.3f pp at %s, %.3f pp at %s\n", lo, percent(fractions[i-1]), hi, percent(fractions[i]))
		if fractions[i] > fractions[i-1] && hi >= lo {
			broke = append(broke, fmt.Sprintf("- more rows, worse: mean worst error %.3f pp at %s, %.3f pp at %s", hi, percent(fractions[i]), lo, percent(fractions[i-1])))
		}
	}
	if len(broke) > 0 {
		fmt.Printf("\nShapes without names that broke a bound (%d):\n\n%s\n", len(broke), strings.Join(broke, "\n"))
	}
	if len(known) > 0 {
		fmt.Printf("\nShapes with names that broke a bound (%d; not held to them):\n\n%s\n", len(known), strings.Join(known, "\n"))
	}
	fmt.Println()
	return len(broke)
}

// printDraws prints, for each shape and fraction, how many of its draws
// met the bound and the spread of their worst errors: a shape whose
// draws mostly meet it, and whose shape seed's draw lies in the tail of
// the others, missed by the draw, not by a defect that every draw
// repeats.
func printDraws(runs []shapeRun, fractions []float64, draws int) {
	fmt.Printf("Draws: each shape sampled %d times at each fraction (sample seeds the shape's seed to seed+%d).\n\n", draws, draws-1)
	fmt.Printf("| shape | fraction | draws within | worst error: median | worst error: max | draw 0 (the shape's seed) | its rank (1: the least error) |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|\n")
	type key struct {
		seed     uint64
		fraction float64
	}
	byShape := map[key][]shapeRun{}
	var order []key
	for _, r := range runs {
		k := key{r.shape.Seed, r.fraction}
		if _, ok := byShape[k]; !ok {
			order = append(order, k)
		}
		byShape[k] = append(byShape[k], r)
	}
	slices.SortStableFunc(order, func(a, b key) int { return cmp.Compare(a.fraction, b.fraction) })
	for _, k := range order {
		rs := byShape[k]
		var worst []float64
		within := 0
		for _, r := range rs {
			worst = append(worst, r.worst)
			if r.worst <= shapeBounds[k.fraction] {
				within++
			}
		}
		own := rs[0].worst // draw 0: the shape's seed
		slices.Sort(worst)
		rank := slices.Index(worst, own) + 1
		shape := rs[0].shape
		fmt.Printf("| %s, seed %d, %d prefixes | %s | %d/%d | %.3f pp | %.3f pp | %.3f pp | %d of %d |\n", shape.Family, shape.Seed, len(shape.Prefixes), percent(k.fraction), within, len(rs),
			worst[len(worst)/2], worst[len(worst)-1], own, rank, len(rs))
	}
	fmt.Println()
}

// familyNames returns the shape families' names.
func familyNames() []string {
	var names []string
	for _, f := range tableshape.Families() {
		names = append(names, string(f))
	}
	return names
}
