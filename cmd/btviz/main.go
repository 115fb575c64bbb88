// Command btviz is an offline Key Visualizer for Cloud Bigtable: it samples
// a table's row keys, shows where rows, bytes and writes concentrate in an
// interactive terminal heatmap, and names the row-key design problems it
// finds. See README.md for a tour and the command reference.
package main

import (
	"context"
	"io"
	"os"
	"syscall"

	"charm.land/fang/v2"
)

// version is btviz's release; a build may set it with
// -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// run executes btviz with args and returns the process exit code; tests
// call it in-process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	options := []fang.Option{
		fang.WithNotifySignal(os.Interrupt, syscall.SIGTERM),
		fang.WithErrorHandler(printError),
		fang.WithVersion(version),
	}
	return exitCode(fang.Execute(ctx, root, options...))
}
