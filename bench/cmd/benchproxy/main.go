// Command benchproxy measures the recording proxy (package record): the
// same client workload run directly against an emulator and through a
// recording proxy in front of it, in interleaved rounds. bench/run.sh
// strings its subcommands together, with `benchscan serve` as the
// emulator:
//
//	benchproxy load    -emulator ADDR                 create and fill the benchmark table
//	benchproxy proxy   -upstream ADDR -addr-file F    run a recording proxy until SIGTERM
//	benchproxy measure -target ADDR -workload W       one run of one workload, printed as a JSON line
//	benchproxy report  -emulator ADDR -proxy ADDR     every run, each in a fresh process, and the table
//
// The emulator, the proxy and each client run in processes of their own,
// so that /proc gives each one's CPU time.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchproxy load|proxy|measure|report [flags]; see bench/run.sh")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "load":
		err = load(os.Args[2:])
	case "proxy":
		err = serveProxy(os.Args[2:])
	case "measure":
		err = measure(os.Args[2:])
	case "report":
		err = report(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q: want load, proxy, measure or report", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchproxy:", err)
		os.Exit(1)
	}
}
