package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
)

// hostileKeys would break a terminal or a Markdown table if written raw.
var hostileKeys = []string{
	"user#\x1b[31mred\x1b[0m#1",
	"user#`tick``s`#2",
	"user#a|b|c#3",
	"user#line\nbreak\r#4",
	"user#\x9b31m\x07#5",
	"user#\x7fdel\x00#6",
	"user#\xff\xfe#7",
	"`user#edge`",
	"user#*bold* _it_ [link](x) <b>&amp;#8",
	"user#\\x1b#9",
}

func hostileInput(t *testing.T) Input {
	t.Helper()
	meta := &keyspace.Snapshot{Source: keyspace.SourceEmulator, Table: "evil`|\x1btable", Project: "p\x1b]0;x\x07",
		Instance: "i|`", Families: []string{"f"}, Scan: keyspace.ScanInfo{Mode: keyspace.ModeFull, Fraction: 1, Complete: true, ValuesRead: true}}
	b := keyspace.NewBuilder(meta, keyspace.Options{Delimiters: "#"})
	for i, key := range hostileKeys {
		b.Add(&keyspace.Row{Key: key, Weight: 1, Cells: []keyspace.Cell{{Family: "f", Qualifier: "q\x1b", Timestamp: int64(i) * 1000, ValueBytes: int64(i * 100)}}})
	}
	snap := b.Snapshot()
	in := Input{Snapshot: snap, Findings: diagnose.Diagnose(snap),
		Images: map[Section][]Image{SectionFindings: {{Alt: "a](b) <x>\x1b", Path: "dir/evil>name\x1b.png"}}}}
	tr, _ := diagnose.ParseTransform("salt(2)")
	w, err := diagnose.RunWhatIf(snap, tr)
	if err != nil {
		t.Fatal(err)
	}
	in.WhatIfs = []*diagnose.WhatIf{w}
	return in
}

// TestHostileKeys: no format writes a raw control byte, a C1 control or
// a byte that is not UTF-8, whatever the keys hold.
func TestHostileKeys(t *testing.T) {
	in := hostileInput(t)
	for _, format := range Formats() {
		out, err := Render(format, in)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(out) {
			t.Errorf("%s output is not UTF-8", format)
		}
		for i, r := range string(out) {
			if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
				t.Errorf("%s output holds control %U at byte %d: %q", format, r, i, context(string(out), i))
				break
			}
		}
	}
}

// TestHostileMarkdownTables: every table row has as many cells as its
// header, and every code span is closed, whatever the keys hold.
func TestHostileMarkdownTables(t *testing.T) {
	out := string(Markdown(hostileInput(t)))
	lines := strings.Split(out, "\n")
	columns := 0
	for i, line := range lines {
		if !strings.HasPrefix(line, "|") {
			columns = 0
			continue
		}
		cells := tableCells(line)
		if columns == 0 {
			columns = len(cells)
			continue
		}
		if len(cells) != columns {
			t.Errorf("line %d has %d cells, its table %d: %s", i+1, len(cells), columns, line)
		}
	}
	for i, line := range lines {
		if strings.HasPrefix(line, "![") || strings.Contains(line, "heat") {
			continue
		}
		if !spansClosed(line) {
			t.Errorf("line %d leaves a code span open: %s", i+1, line)
		}
	}
	for _, key := range hostileKeys {
		if !strings.Contains(out, keyspace.Printable(key)[:5]) {
			t.Errorf("key %q is not in the report at all", key)
		}
	}
	if !strings.Contains(out, `![a\](b) \<x\>\\x1b](<dir/evil%3Ename\x1b.png>)`) {
		t.Errorf("image link not escaped:\n%s", out[:min(len(out), 2000)])
	}
}

// tableCells splits a table row at the pipes Markdown reads as cell
// separators: not escaped with a backslash. (GitHub splits cells before
// it reads code spans, which is why keys write | as \|.)
func tableCells(line string) []string {
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line):
			cell.WriteByte(line[i])
			cell.WriteByte(line[i+1])
			i++
		case line[i] == '|':
			cells = append(cells, cell.String())
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return cells[1:] // the text before the leading pipe
}

// spansClosed reports whether every backtick run outside a code span
// opens a span that a run of the same length closes.
func spansClosed(line string) bool {
	for i := 0; i < len(line); {
		if line[i] == '\\' && (i+1 < len(line) && line[i+1] == '`') {
			i += 2
			continue
		}
		if line[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := i + n
		closed := false
		for end < len(line) {
			j := strings.Index(line[end:], fence)
			if j < 0 {
				break
			}
			j += end
			k := j + n
			if (j == 0 || line[j-1] != '`') && (k >= len(line) || line[k] != '`') {
				i, closed = k, true
				break
			}
			for k < len(line) && line[k] == '`' {
				k++
			}
			end = k
		}
		if !closed {
			return false
		}
	}
	return true
}

func context(s string, i int) string {
	return s[max(0, i-30):min(len(s), i+30)]
}

func TestMarkdownCodeSpans(t *testing.T) {
	cases := []struct{ key, want string }{
		{"user#42", "`user#42`"},
		{"a`b", "``a`b``"},
		{"`edge`", "`` `edge` ``"},
		{"a``b`", "``` a``b` ```"},
		{"a|b", "`a\\|b`"},
		{"\x1b[31m", "`\\x1b[31m`"},
		{"", "`\"\"`"},
	}
	for _, c := range cases {
		if got := mdCode(c.key); got != c.want {
			t.Errorf("mdCode(%q) = %s, want %s", c.key, got, c.want)
		}
	}
	long := strings.Repeat("k", 5000)
	if got := mdKey(long); len(got) > maxMarkdownKey+40 || !strings.HasSuffix(got, "(5,000 bytes)") {
		t.Errorf("mdKey of a 5,000-byte key = %q", got)
	}
	if got := mdText("a*b_c|d`e\\f\nnext"); got != `a\*b\_c\|d\`+"`"+`e\\f next` {
		t.Errorf("mdText = %q", got)
	}
}

// FuzzMarkdownKey: any key makes one closed code span that fills exactly
// one table cell and holds no control byte.
func FuzzMarkdownKey(f *testing.F) {
	for _, key := range hostileKeys {
		f.Add(key)
	}
	f.Add("``` | `")
	f.Fuzz(func(t *testing.T, key string) {
		for _, span := range []string{mdCode(key), mdKey(key)} {
			for i := 0; i < len(span); i++ {
				if span[i] < 0x20 || span[i] >= 0x7f {
					t.Fatalf("span %q of %q holds byte %#x", span, key, span[i])
				}
			}
			if !spansClosed(span) {
				t.Fatalf("span %q of %q is not closed", span, key)
			}
			if cells := tableCells("| " + span + " |"); len(cells) != 1 {
				t.Fatalf("span %q of %q fills %d table cells", span, key, len(cells))
			}
		}
	})
}
