package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, two levels up from this package.
const root = "../.."

// unitSpans returns the `code spans` of a Markdown file, grouped by unit:
// a list item (with its continuation lines) or a paragraph.
func unitSpans(t *testing.T, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	itemStart := regexp.MustCompile(`^([0-9]+\.|-) `)
	span := regexp.MustCompile("`([^`\n]+)`")
	var units [][]string
	var unit strings.Builder
	flush := func() {
		var spans []string
		for _, m := range span.FindAllStringSubmatch(unit.String(), -1) {
			spans = append(spans, m[1])
		}
		if len(spans) > 0 {
			units = append(units, spans)
		}
		unit.Reset()
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || itemStart.MatchString(line) || strings.HasPrefix(line, "#") {
			flush()
		}
		unit.WriteString(line + "\n")
	}
	flush()
	return units
}

// declared returns every name the Go files hold declarations of: the
// functions, types, variables and constants, the fields and interface
// methods of their types, and each method twice, as "m" and "T.m".
func declared(t *testing.T, files ...string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
				if d.Recv != nil && len(d.Recv.List) == 1 {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					if id, ok := recv.(*ast.Ident); ok {
						names[id.Name+"."+d.Name.Name] = true
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
						ast.Inspect(s.Type, func(n ast.Node) bool {
							if field, ok := n.(*ast.Field); ok {
								for _, name := range field.Names {
									names[name.Name] = true
								}
							}
							return true
						})
					case *ast.ValueSpec:
						for _, name := range s.Names {
							names[name.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// goFiles returns the Go files of directory dir (tests included).
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// context is where the names that follow a path in a unit are declared:
// one Go file, or any Go file of a package.
type context struct {
	where string
	files []string
}

// contextOf returns the context a path sets: a Go file is its own, a
// file name with a <placeholder> or another file (a golden, a doc)
// gives its package, and a directory is a package.
func contextOf(t *testing.T, path string) context {
	t.Helper()
	if i := strings.Index(path, "<"); i >= 0 {
		dir := filepath.Dir(path[:i] + "x")
		return context{dir + "/", goFiles(t, dir)}
	}
	if strings.HasSuffix(path, ".go") {
		return context{path, []string{filepath.Join(root, path)}}
	}
	if info, err := os.Stat(filepath.Join(root, path)); err == nil && info.IsDir() {
		return context{path + "/", goFiles(t, path)}
	}
	dir := filepath.Dir(path)
	if i := strings.Index(dir+"/", "/testdata/"); i >= 0 {
		dir = dir[:i]
	}
	return context{dir + "/", goFiles(t, dir)}
}

// goSource returns every non-generated Go file of the repository,
// concatenated.
func goSource(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b.Write(data)
			b.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	pathLike   = regexp.MustCompile(`^[a-z][a-zA-Z0-9_<>./-]*/[a-zA-Z0-9_<>./-]*$|^[A-Za-z0-9_-]+\.(go|md|golden)$`)
	callLike   = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\(\)$`)
	methodLike = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$`)
	testLike   = regexp.MustCompile(`^(Test[A-Za-z0-9_]+)$`)
	nameLike   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// TestContributingNamesWhatExists checks every path, function, method,
// test and name CONTRIBUTING.md names. Within a list item or paragraph, a
// name that follows a path must be declared there: a function after
// `tui/pane.go` in tui/pane.go, a name after `diagnose/<kind>.go` or
// `tui` in that package. A name no path precedes must exist somewhere.
func TestContributingNamesWhatExists(t *testing.T) {
	src := goSource(t)
	checked, placed := 0, 0
	for _, unit := range unitSpans(t, "CONTRIBUTING.md") {
		var ctx *context
		var names map[string]bool
		for _, span := range unit {
			isDir := false
			if nameLike.MatchString(span) {
				info, err := os.Stat(filepath.Join(root, span))
				isDir = err == nil && info.IsDir() // a package: `tui`
			}
			if isDir || pathLike.MatchString(span) && !strings.Contains(span, " ") {
				path := span
				if i := strings.Index(path, "<"); i >= 0 {
					path = path[:i] // "tui/<pane>.go": the directory must exist
				}
				if _, err := os.Stat(filepath.Join(root, path)); err != nil {
					t.Errorf("CONTRIBUTING.md names %s, which does not exist", span)
					ctx = nil
					continue
				}
				c := contextOf(t, span)
				ctx, names = &c, declared(t, c.files...)
				checked++
				continue
			}
			var name string
			switch {
			case callLike.MatchString(span):
				name = callLike.FindStringSubmatch(span)[1]
				if ctx == nil && !regexp.MustCompile(`func (\([^)]*\) )?`+name+`[\[(]`).MatchString(src) {
					t.Errorf("CONTRIBUTING.md names %s, but no function %s exists", span, name)
				}
			case methodLike.MatchString(span):
				name = span
				m := methodLike.FindStringSubmatch(span)
				if ctx == nil && !regexp.MustCompile(`func \([a-z]+ \*?`+m[1]+`\) `+m[2]+`\(`).MatchString(src) {
					t.Errorf("CONTRIBUTING.md names %s, but %s has no method %s", span, m[1], m[2])
				}
			case testLike.MatchString(span):
				name = span
				if ctx == nil && !strings.Contains(src, "func "+span+"(") {
					t.Errorf("CONTRIBUTING.md names the test %s, which does not exist", span)
				}
			case nameLike.MatchString(span) && ctx != nil:
				name = span
			default:
				continue
			}
			checked++
			if ctx != nil {
				placed++
				if !names[name] {
					t.Errorf("CONTRIBUTING.md names %s next to %s, which declares no %s", span, ctx.where, name)
				}
			}
		}
	}
	t.Logf("%d references checked, %d of them in the file named beside them", checked, placed)
	if checked < 60 || placed < 35 {
		t.Fatalf("only %d references checked, %d of them in the file named beside them: has CONTRIBUTING.md lost its recipes?", checked, placed)
	}
}
