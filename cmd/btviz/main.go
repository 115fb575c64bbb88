// Command btviz is an offline Key Visualizer for Cloud Bigtable: it samples
// a table's row keys, shows where rows, bytes and writes concentrate in an
// interactive terminal heatmap, and names the row-key design problems it
// finds. See README.md for a tour and the command reference.
package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"
)

// version is btviz's release; a build may set it with
// -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// execute runs root with args and returns the exit code: errors are
// printed by [printError], help is laid out for the terminal by
// [app.help], and a panic in the command becomes [exitInternal] (see
// [app.recoverPanic]).
func (a *app) execute(ctx context.Context, root *cobra.Command, args []string) (code int) {
	defer a.recoverPanic(&code)
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetHelpFunc(a.help)
	root.SilenceUsage, root.SilenceErrors = true, true
	root.Version = version
	err := root.ExecuteContext(ctx)
	if err != nil {
		printError(a.stderr, err)
	}
	return exitCode(err)
}
