package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository, two levels up from this package.
const root = "../.."

// codeSpans returns the text of every `code span` of a Markdown file.
func codeSpans(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	var spans []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(string(data), -1) {
		spans = append(spans, m[1])
	}
	return spans
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
)

// TestContributingNamesWhatExists checks every path, function, method
// and test CONTRIBUTING.md names.
func TestContributingNamesWhatExists(t *testing.T) {
	src := goSource(t)
	checked := 0
	for _, span := range codeSpans(t, "CONTRIBUTING.md") {
		switch {
		case pathLike.MatchString(span) && !strings.Contains(span, " "):
			path := span
			if i := strings.Index(path, "<"); i >= 0 {
				path = path[:i] // "tui/<pane>.go": the directory must exist
			}
			if _, err := os.Stat(filepath.Join(root, path)); err != nil {
				t.Errorf("CONTRIBUTING.md names %s, which does not exist", span)
			}
			checked++
		case callLike.MatchString(span):
			name := callLike.FindStringSubmatch(span)[1]
			if !regexp.MustCompile(`func (\([^)]*\) )?` + name + `[\[(]`).MatchString(src) {
				t.Errorf("CONTRIBUTING.md names %s, but no function %s exists", span, name)
			}
			checked++
		case methodLike.MatchString(span):
			m := methodLike.FindStringSubmatch(span)
			if !regexp.MustCompile(`func \([a-z]+ \*?` + m[1] + `\) ` + m[2] + `\(`).MatchString(src) {
				t.Errorf("CONTRIBUTING.md names %s, but %s has no method %s", span, m[1], m[2])
			}
			checked++
		case testLike.MatchString(span):
			if !strings.Contains(src, "func "+span+"(") {
				t.Errorf("CONTRIBUTING.md names the test %s, which does not exist", span)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d references checked: has CONTRIBUTING.md lost its recipes?", checked)
	}
}
