// Command benchscan measures the sampler against a Bigtable emulator. It
// has six subcommands, which bench/run.sh strings together:
//
//	benchscan serve  -addr-file F        run an in-process emulator (bttest) until killed
//	benchscan load   -emulator ADDR      create and load the benchmark tables
//	benchscan report -emulator ADDR      run every measurement, each in a fresh process, and print the table
//	benchscan measure -emulator ADDR -table T -how bare|full|sample|keys [-fraction F] [-seed S]
//	                                     one measurement, printed as a JSON line
//	benchscan cloud -emulator ADDR -control ADDR
//	                                     the Cloud-like measurements of cloud2m behind serve -tablets
//	benchscan shapes [-count N] [-seed S]
//	                                     sampled scans of generated table shapes against their exact counts
//
// The emulator runs in its own process so that the memory figures are the
// scanner's alone.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchscan serve|load|report|measure|cloud|shapes [flags]; see bench/run.sh")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	case "measure":
		err = measure(os.Args[2:])
	case "cloud":
		err = cloud(os.Args[2:])
	case "shapes":
		err = shapes(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q: want serve, load, report, measure, cloud or shapes", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchscan:", err)
		os.Exit(1)
	}
}
