package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	"cloud.google.com/go/bigtable/bttest"
	"google.golang.org/grpc"

	"github.com/btviz/btviz/connect"
	"github.com/btviz/btviz/internal/cloudlike"
	"github.com/btviz/btviz/internal/tableshape"
	"github.com/btviz/btviz/sampler"
)

// shapeBounds are issue 26's marks: the worst top-level prefix share
// error a sample may make at each fraction, and the share of the table
// the server may read at 1%.
var shapeBounds = map[float64]float64{0.001: 1.5, 0.01: 0.5, 0.1: 0.2}

const maxShareReadAtOnePercent = 0.015

// shapeRun is one sampled scan of one shape.
type shapeRun struct {
	shape          tableshape.Shape
	fraction       float64
	worst          float64
	worstAt        string
	nodes, covered int
	readShare      float64
	seconds        float64
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
	minRows := flags.Int("min-rows", 600_000, "fewest rows a shape holds")
	maxRows := flags.Int("max-rows", 1_000_000, "most rows a shape holds")
	fractionList := flags.String("fractions", "0.001,0.01,0.1", "fractions to sample each shape at")
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
	fmt.Fprintf(os.Stderr, "shapes: %d shapes from seed %d (replay: benchscan shapes -seed %d -count %d)\n", *count, *first, *first, *count)
	families := tableshape.Families()
	var runs []shapeRun
	for i := range *count {
		seed := *first + uint64(i)
		rng := rand.New(rand.NewPCG(seed, 1))
		shape := tableshape.Draw(seed, families[seed%uint64(len(families))], *minRows+rng.IntN(*maxRows-*minRows+1))
		shapeRuns, err := sampleShape(shape, fractions)
		if err != nil {
			return fmt.Errorf("%s: %w", shape, err)
		}
		runs = append(runs, shapeRuns...)
	}
	if broke := printShapes(runs, fractions, *first, *count); broke > 0 {
		return fmt.Errorf("FAIL: %d bounds broken", broke)
	}
	fmt.Println("PASS: every shape within every bound")
	return nil
}

// sampleShape loads shape behind a Cloud-like emulator and samples it at
// each fraction.
func sampleShape(shape tableshape.Shape, fractions []float64) ([]shapeRun, error) {
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
		counter.Reset()
		began := time.Now()
		snap, err := sampler.Scan(ctx, conn, "t", sampler.Options{Fraction: fraction, Seed: shape.Seed})
		if err != nil {
			return nil, err
		}
		acc := tableshape.Judge(snap, truth)
		run := shapeRun{shape: shape, fraction: fraction, worst: acc.Worst, worstAt: acc.WorstPrefix, nodes: acc.Nodes, covered: acc.Covered,
			readShare: float64(counter.Rows()) / float64(shape.TotalRows()), seconds: time.Since(began).Seconds()}
		fmt.Fprintf(os.Stderr, "  %g: worst %.3f pp at %s; %d/%d intervals hold the truth; the server read %.3f%% of the rows; %.2fs\n",
			fraction, run.worst, run.worstAt, run.covered, run.nodes, 100*run.readShare, run.seconds)
		runs = append(runs, run)
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
// broke a bound, and returns how many bounds they broke.
func printShapes(runs []shapeRun, fractions []float64, first uint64, count int) int {
	fmt.Printf("\n### Accuracy on generated shapes\n\n")
	fmt.Printf("%d shapes (internal/tableshape, seeds %d–%d, 0.6–1M rows each), each behind an emulator answering SampleRowKeys with its tablets\n",
		count, first, first+uint64(count)-1)
	fmt.Printf("(internal/cloudlike), sampled at %v with the shape's seed. Worst error: the largest error of a top-level prefix's share of the\n", fractions)
	fmt.Printf("rows, per shape; intervals: top-level prefixes whose 95%% interval held the true rows; read: rows read at the server.\n\n")
	fmt.Printf("| shapes | fraction | worst error: median | worst error: max | bound | shapes within | intervals holding the truth | rows read: max |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	families := append([]string{"all"}, familyNames()...)
	for _, family := range families {
		for _, fraction := range fractions {
			var worst []float64
			var within, nodes, covered int
			var read float64
			for _, r := range runs {
				if r.fraction != fraction || family != "all" && string(r.shape.Family) != family {
					continue
				}
				worst = append(worst, r.worst)
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
			fmt.Printf("| %s (%d) | %s | %.3f pp | %.3f pp | %.1f pp | %d/%d | %.1f%% (%d/%d) | %.3f%% |\n", family, len(worst), percent(fraction),
				worst[len(worst)/2], worst[len(worst)-1], shapeBounds[fraction], within, len(worst), 100*float64(covered)/float64(max(nodes, 1)), covered, nodes, 100*read)
		}
	}
	fmt.Println()
	var broke []string
	for _, r := range runs {
		if r.worst > shapeBounds[r.fraction] {
			broke = append(broke, fmt.Sprintf("- %s at %s: %.3f pp at %s (bound %.1f pp)", r.shape, percent(r.fraction), r.worst, r.worstAt, shapeBounds[r.fraction]))
		}
		if r.fraction == 0.01 && r.readShare > maxShareReadAtOnePercent {
			broke = append(broke, fmt.Sprintf("- %s at 1%%: the server read %.3f%% of the rows (bound %.1f%%)", r.shape, 100*r.readShare, 100*maxShareReadAtOnePercent))
		}
	}
	// More rows never worse: a larger fraction's worst error is not
	// above a smaller one's by more than the larger one's bound.
	for i, r := range runs {
		for _, s := range runs[i+1:] {
			if s.shape.Seed == r.shape.Seed && s.fraction > r.fraction && s.worst > r.worst+shapeBounds[s.fraction] {
				broke = append(broke, fmt.Sprintf("- %s: %.3f pp at %s, worse than %.3f pp at %s", r.shape, s.worst, percent(s.fraction), r.worst, percent(r.fraction)))
			}
		}
	}
	if len(broke) > 0 {
		fmt.Printf("Shapes that broke a bound (%d):\n\n%s\n\n", len(broke), strings.Join(broke, "\n"))
	}
	return len(broke)
}

// familyNames returns the shape families' names.
func familyNames() []string {
	var names []string
	for _, f := range tableshape.Families() {
		names = append(names, string(f))
	}
	return names
}
