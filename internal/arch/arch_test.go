package arch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the repository, two levels up from this package.
const root = "../.."

// module is the module path every package of btviz starts with.
const module = "github.com/btviz/btviz"

// layers are btviz's packages by layer, bottom first, as
// docs/ARCHITECTURE.md draws them: a package imports packages of its own
// layer or of layers below it, never above.
var layers = []struct {
	name     string
	packages []string
}{
	{"base", []string{"internal/units", "internal/escape", "internal/atomicfile", "internal/bug"}},
	{"model", []string{"internal/keyspace", "internal/keytime"}},
	{"core", []string{"internal/heatmap", "internal/diagnose", "internal/demo", "internal/report", "internal/source", "internal/tableshape"}},
	{"render", []string{"internal/render", "internal/artifact"}},
	{"view", []string{"internal/view"}},
	{"output", []string{"internal/export"}},
	{"io", []string{"internal/connect", "internal/sampler", "internal/record", "internal/record/loadgen", "internal/emulator", "internal/emulator/cloudlike", "internal/hottablets"}},
	{"session", []string{"internal/session"}},
	{"program", []string{"internal/tui"}},
	{"commands", []string{"cmd/btviz", "bench/cmd/benchproxy", "bench/cmd/benchreport", "bench/cmd/benchscan", "bench/internal/benchproc"}},
}

// harnesses are the packages tests are built from: test kits beside their
// package or under internal/testkit, and the packages that only hold tests.
// Only tests and other harnesses import them.
var harnesses = []string{"internal/testkit/", "internal/demo/demotest", "internal/heatmap/heatmaptest", "internal/tui/tuitest", "internal/docs", "internal/arch"}

// Packages outside btviz, by what they do: import paths, or path prefixes
// where an entry ends in "/".
var (
	// terminal: the Charm libraries that style, detect and drive a
	// terminal (not x/ansi, which only measures and cuts text).
	terminal = []string{"charm.land/", "github.com/charmbracelet/colorprofile", "github.com/charmbracelet/ultraviolet", "github.com/charmbracelet/ultraviolet/", "github.com/charmbracelet/x/term", "github.com/charmbracelet/x/termios", "github.com/muesli/cancelreader"}
	// font: glyph rasterizing and the Go fonts.
	font = []string{"golang.org/x/image/font", "golang.org/x/image/font/"}
	// network: sockets, HTTP, TLS, gRPC and the Bigtable client (not
	// net/url or net/netip, which only parse text).
	network = []string{"net", "net/http", "net/http/", "crypto/tls", "golang.org/x/net/", "google.golang.org/grpc", "google.golang.org/grpc/", "cloud.google.com/go/"}
	// runtime: the Bubble Tea runtime, which only the program imports
	// (bubbles' help, which draws key bindings, links it without running
	// it), and the widgets that read input.
	runtime = []string{"charm.land/bubbletea/v2"}
	input   = []string{"charm.land/bubbles/v2/textinput", "github.com/atotto/clipboard"}
)

// pkg is what `go list -json` says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	// Error is set when go list could not load the package: its imports
	// may then be missing.
	Error *struct{ Err string }
}

// rule is one constraint of docs/ARCHITECTURE.md on what a set of
// packages may link.
type rule struct {
	name string
	// who the rule binds, as paths inside the module.
	who []string
	// direct checks only what the packages import themselves; otherwise
	// everything they link.
	direct bool
	// forbidden are import path prefixes (an entry ending in "/" is a
	// prefix; any other is a path or a path with subpackages).
	forbidden []string
	why       string
}

// rules are the named rules beyond the layers'.
func rules() []rule {
	inLayers := func(names ...string) []string {
		var out []string
		for _, l := range layers {
			if slices.Contains(names, l.name) {
				out = append(out, l.packages...)
			}
		}
		return out
	}
	var ioPaths []string
	for _, p := range inLayers("io", "session") {
		ioPaths = append(ioPaths, module+"/"+p)
	}
	return []rule{
		{
			name: "pure core", who: inLayers("base", "model", "core"),
			forbidden: slices.Concat(terminal, font, network),
			why:       "the core takes values and returns values: no terminal, font or network",
		},
		{
			name: "diagnose draws nothing", who: []string{"internal/diagnose"},
			forbidden: []string{module + "/internal/heatmap", module + "/internal/render", module + "/internal/view"},
			why:       "a finding says where and why, not how it is drawn (export picks the view of a finding)",
		},
		{
			name: "one font pipeline", who: allBut("internal/render"), direct: true,
			forbidden: font,
			why:       "only package render draws glyphs",
		},
		{
			name: "no network above io", who: inLayers("render", "view", "output", "program"),
			forbidden: slices.Concat(network, ioPaths),
			why:       "drawing, exporting and the interactive program do no network I/O: sources (package session) do it for them",
		},
		{
			name: "view runs no program", who: inLayers("render", "view", "output"), direct: true,
			forbidden: runtime,
			why:       "frames are drawn without the Bubble Tea runtime, which only package tui runs",
		},
		{
			name: "view reads no input", who: inLayers("render", "view", "output"),
			forbidden: input,
			why:       "the text input and the clipboard are the program's (package tui)",
		},
	}
}

// allBut returns every package of the layers but except.
func allBut(except string) []string {
	var out []string
	for _, l := range layers {
		for _, p := range l.packages {
			if p != except {
				out = append(out, p)
			}
		}
	}
	return out
}

// matches reports whether path is one of paths: equal to an entry, or
// starting with an entry that ends in "/".
func matches(path string, paths []string) bool {
	for _, p := range paths {
		if path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// listPackages runs `go list -json ./...` at the repository's root and
// returns btviz's packages by path inside the module.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -json ./...: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading go list's output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list cannot load %s, so its imports cannot be checked: %s", p.ImportPath, p.Error.Err)
		}
		pkgs[strings.TrimPrefix(p.ImportPath, module+"/")] = p
	}
	return pkgs
}

// layerOf returns the index of path's layer, or −1 for a harness and −2
// for a package in no layer.
func layerOf(path string) int {
	for _, h := range harnesses {
		if path == h || strings.HasSuffix(h, "/") && strings.HasPrefix(path, h) {
			return -1
		}
	}
	for i, l := range layers {
		if slices.Contains(l.packages, path) {
			return i
		}
	}
	return -2
}

// via returns the import of p through which it links dep: dep itself when
// p imports it, else the first import that links it.
func via(pkgs map[string]pkg, p pkg, dep string) string {
	if slices.Contains(p.Imports, dep) {
		return ""
	}
	for _, imp := range p.Imports {
		if q, ok := pkgs[strings.TrimPrefix(imp, module+"/")]; ok && slices.Contains(q.Deps, dep) {
			return " (through " + strings.TrimPrefix(imp, module+"/") + ")"
		}
	}
	return " (through a package outside btviz)"
}

// TestEveryImportGoesDownTheLayers checks the layers of
// docs/ARCHITECTURE.md: every package is in one, and no package imports
// one of a layer above its own or a test harness.
func TestEveryImportGoesDownTheLayers(t *testing.T) {
	pkgs := listPackages(t)
	for path, p := range pkgs {
		from := layerOf(path)
		if from == -2 {
			t.Errorf("rule \"layers\" (docs/ARCHITECTURE.md): package %s is in no layer; place it in docs/ARCHITECTURE.md and in this test's layers", path)
			continue
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			to := layerOf(dep)
			switch {
			case to == -1 && from != -1:
				t.Errorf("rule \"harnesses\" (docs/ARCHITECTURE.md): %s imports %s, a test harness; only tests may", path, dep)
			case from >= 0 && to >= 0 && to > from:
				t.Errorf("rule \"layers\" (docs/ARCHITECTURE.md): %s (layer %s) imports %s of layer %s, above it", path, layers[from].name, dep, layers[to].name)
			}
		}
	}
}

// TestNoPackageLinksWhatItsLayerMustNot checks the named rules of
// docs/ARCHITECTURE.md on what packages link.
func TestNoPackageLinksWhatItsLayerMustNot(t *testing.T) {
	pkgs := listPackages(t)
	for _, r := range rules() {
		for _, path := range r.who {
			p, ok := pkgs[path]
			if !ok {
				t.Errorf("rule %q (docs/ARCHITECTURE.md) names package %s, which does not exist", r.name, path)
				continue
			}
			linked := p.Deps
			if r.direct {
				linked = p.Imports
			}
			var bad []string
			for _, dep := range linked {
				if matches(dep, r.forbidden) {
					bad = append(bad, dep)
				}
			}
			if len(bad) > 0 {
				more := ""
				if len(bad) > 1 {
					more = fmt.Sprintf(" and %d more it must not", len(bad)-1)
				}
				t.Errorf("rule %q (docs/ARCHITECTURE.md): %s links %s%s%s; %s", r.name, path, bad[0], via(pkgs, p, bad[0]), more, r.why)
			}
		}
	}
}

// TestArchitectureNamesEveryPackage: docs/ARCHITECTURE.md names every
// package of the layers and every harness, so that it stays the map of
// the code.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layers {
		for _, p := range slices.Concat(l.packages, harnesses) {
			if !bytes.Contains(doc, []byte("`"+p+"`")) && !bytes.Contains(doc, []byte("`"+strings.TrimSuffix(p, "/")+"`")) {
				t.Errorf("docs/ARCHITECTURE.md does not name `%s`", p)
			}
		}
	}
}
