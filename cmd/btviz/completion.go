package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/artifact"
	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/heatmap"
	"github.com/btviz/btviz/internal/record/loadgen"
	"github.com/btviz/btviz/internal/render"
	"github.com/btviz/btviz/internal/report"
	"github.com/btviz/btviz/internal/view"
)

// tableCompletionTimeout bounds the look-up of table names for shell
// completion: a target that does not answer within it completes nothing
// rather than hold the shell.
const tableCompletionTimeout = time.Second

// completion is how one flag's value completes.
type completion = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// registerCompletions teaches every command of the tree under root to
// complete its flags' values in bash, zsh, fish and PowerShell (cobra's
// `btviz completion SHELL` scripts ask btviz itself): the names every
// enumerated flag takes, with a description where it has one; table
// names from the target when it answers within
// [tableCompletionTimeout]; snapshot files, image files and directories
// by kind; and nothing for free text (a project, a key, a number),
// rather than the shell's file names.
func (a *app) registerCompletions(root *cobra.Command) {
	byFlag := map[string]completion{
		"metric":    fixed(metricChoices()),
		"view":      fixed(names(view.Panes())),
		"bucketing": fixed(names(heatmap.Bucketings())),
		"scale":     fixed(names(heatmap.ScaleKinds())),
		"palette":   fixed(render.PaletteNames()),
		"theme":     fixed(names(view.Themes())),
		"traffic":   fixed(workloadChoices()),
		"format":    fixed(names(report.Formats())),
		"fail-on":   fixed(severityChoices()),
		"scenario":  commaList(scenarioChoices()),
		"seed":      commaList(scenarioChoices()),
		"size":      fixed([]string{"200x60\tthe default", "160x50", "120x40", "80x24\tthe smallest"}),
		"what-if": fixed([]string{"salt(8)\tprefix every key with hash(key) mod 8", "salt(8, prefix=3)\thash of the first 3 segments",
			"reverse-ts(-1)\treverse the timestamp in the last segment", "reverse(0)\treverse the first segment", "promote(1)\tmove segment 1 to the front"}),
		"delimiters":     fixed([]string{"#", "#:", ":", "/", "|", "_"}),
		"table":          a.completeTables,
		"snapshot":       extensions("btviz"),
		"images":         directories,
		"screenshot-dir": directories,
		"max-read":       fixed([]string{"500MB", "2GB", "10GB"}),
		"sample":         fixed([]string{"1%", "5%", "10%", "0.01", "0.05"}),
		"duration":       fixed([]string{"30s", "5m", "10m", "1h"}),
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, complete := range byFlag {
			if c.Flags().Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, complete)
			}
		}
		if c.Flags().Lookup("out") != nil {
			c.RegisterFlagCompletionFunc("out", outFiles(c.Name()))
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, ok := c.GetFlagCompletionFunc(f.Name); !ok && f.Value.Type() != "bool" {
				c.RegisterFlagCompletionFunc(f.Name, fixed(nil)) // free text: no file names
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, sub := range root.Commands() {
		switch sub.Name() {
		case "open", "diff":
			sub.ValidArgsFunction = extensions("btviz")
		}
	}
}

// names writes a list of named values as strings.
func names[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// fixed completes from a list (cobra's "name\tdescription" form) and
// never with file names.
func fixed(choices []string) completion {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return choices, cobra.ShellCompDirectiveNoFileComp
	}
}

// commaList completes the last name of a comma-separated list, keeping
// the names before it, and offers no name twice.
func commaList(choices []string) completion {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done, _ := cutLast(toComplete, ",")
		given := strings.Split(done, ",")
		var out []string
		for _, choice := range choices {
			name, _, _ := strings.Cut(choice, "\t")
			if done != "" && (slices.Contains(given, name) || name == "all") {
				continue // "all" stands alone
			}
			if done != "" {
				choice = done + "," + choice
			}
			out = append(out, choice)
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// cutLast cuts s around the last sep: "a,b,c" gives "a,b" and "c".
func cutLast(s, sep string) (before, after string) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+len(sep):]
}

// extensions completes file names ending in one of exts (and
// directories).
func extensions(exts ...string) completion {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return exts, cobra.ShellCompDirectiveFilterFileExt
	}
}

// directories completes directory names only.
func directories(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// outFiles completes --out by what the command writes: any file name
// (a new one is typed), the shell listing those of the right kind.
func outFiles(command string) completion {
	switch command {
	case "export":
		return extensions(names(artifact.Formats())...)
	case "diff":
		return extensions(names(artifact.ImageFormats())...)
	case "scan", "record":
		return extensions("btviz")
	}
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault
	}
}

// severityChoices are the severities --fail-on takes, mildest first.
func severityChoices() []string {
	var out []string
	for _, s := range diagnose.Severities() {
		out = append(out, s.String())
	}
	return out
}

// metricChoices are the metrics with what each measures.
func metricChoices() []string {
	var out []string
	for _, m := range heatmap.Metrics() {
		out = append(out, string(m)+"\t"+m.Description())
	}
	return out
}

// workloadChoices are the demo traffic workloads with their descriptions.
func workloadChoices() []string {
	var out []string
	for _, w := range loadgen.Workloads() {
		out = append(out, w.Name+"\t"+w.Description)
	}
	return out
}

// scenarioChoices are "all" and the demo scenarios with their
// descriptions.
func scenarioChoices() []string {
	out := []string{"all\tevery demo table"}
	for _, sc := range demo.Scenarios() {
		out = append(out, sc.Name+"\t"+sc.Description)
	}
	return out
}

// completeTables completes --table with the tables of the target the
// command line names so far (--emulator, --emulator-host, --project,
// --instance, ~/.cbtrc and the environment, as the command itself would
// resolve it), or of its --snapshot files. The embedded emulator holds
// the demo tables; any other target is asked, and one that does not
// answer within [tableCompletionTimeout] completes nothing.
func (a *app) completeTables(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	const none = cobra.ShellCompDirectiveNoFileComp
	if files, err := cmd.Flags().GetStringArray("snapshot"); err == nil && len(files) > 0 {
		var tables []string
		for _, path := range files {
			snaps, err := a.readSnapshots([]string{path})
			if err != nil {
				return nil, none
			}
			for _, snap := range snaps {
				tables = append(tables, snap.Table)
			}
		}
		slices.Sort(tables)
		return slices.Compact(tables), none
	}
	var flags connect.Flags
	get := func(name string) string { value, _ := cmd.Flags().GetString(name); return value }
	flags.Project, flags.Instance, flags.EmulatorHost, flags.AppProfile = get("project"), get("instance"), get("emulator-host"), get("app-profile")
	flags.Emulator, _ = cmd.Flags().GetBool("emulator")
	t, demoScenarios, err := a.resolve(flags)
	switch {
	case err != nil:
		return nil, none
	case demoScenarios != nil:
		return scenarioTableChoices(), none
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), tableCompletionTimeout)
	defer cancel()
	tables, err := listTables(ctx, t)
	if err != nil {
		cobra.CompDebugln(fmt.Sprintf("btviz: no table names: %v", err), false)
		return nil, none
	}
	return tables, none
}

// scenarioTableChoices are the embedded emulator's tables: the demo
// scenarios, with their descriptions.
func scenarioTableChoices() []string {
	var out []string
	for _, sc := range demo.Scenarios() {
		out = append(out, sc.Name+"\t"+sc.Description)
	}
	return out
}

// listTables names the tables of t's instance, sorted, within ctx.
func listTables(ctx context.Context, t connect.Target) ([]string, error) {
	done := make(chan struct{})
	var tables []string
	var err error
	go func() {
		defer close(done)
		var conn *connect.Conn
		if conn, err = connect.Open(ctx, t); err != nil {
			return
		}
		defer conn.Close()
		if tables, err = conn.Admin.Tables(ctx); err == nil {
			slices.Sort(tables)
		}
	}()
	select {
	case <-done:
		return tables, err
	case <-ctx.Done():
		return nil, ctx.Err() // a dial that ignores the deadline is left behind
	}
}
