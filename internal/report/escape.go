package report

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// mdCode writes s as a Markdown code span that nothing in s can break,
// inside or outside a table: s is escaped by [keyspace.Printable] first
// (so no control bytes or newlines remain), pipes are written \| (GitHub
// Markdown reads that as a pipe inside a table cell, also in code), and
// the span is fenced with one backtick more than the longest run of
// backticks in s, padded with spaces when s starts or ends with a
// backtick. An empty s is written as `""`.
func mdCode(s string) string { return mdSpan(keyspace.Printable(s)) }

// mdName writes a name (table, project, instance, a file's label) as a
// Markdown code span: escaped by btviz's rule for free text ([escape.Text],
// which keeps names in any script readable) rather than as a key, then
// fenced as [mdCode] does.
func mdName(name string) string { return mdSpan(escape.Text(name)) }

// mdSpan fences text, which holds no control characters, as a code span
// that nothing in it can break (see [mdCode]).
func mdSpan(text string) string {
	if text == "" {
		return "`\"\"`"
	}
	text = strings.ReplaceAll(text, "|", `\|`)
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") || strings.HasPrefix(text, " ") && strings.HasSuffix(text, " ") {
		text = " " + text + " "
	}
	return fence + text + fence
}

// mdText writes free text for a Markdown paragraph or table cell: control
// bytes escaped, line breaks flattened, and the characters Markdown would
// act on (emphasis, code, links, HTML, table pipes, entities) escaped with
// a backslash.
func mdText(s string) string {
	s = escape.Text(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>|#~&!", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// rangeText writes [start, end) with each bound written by key, "whole
// table" for a table-wide range and "end of table" for an empty end.
func rangeText(start, end keyspace.Key, key func(string) string) string {
	switch {
	case start == "" && end == "":
		return "whole table"
	case end == "":
		return "[" + key(string(start)) + ", end of table)"
	}
	return "[" + key(string(start)) + ", " + key(string(end)) + ")"
}

// maxTextKey is how much of a key the text report shows.
const maxTextKey = 80

// printable escapes a key for the text report, cutting it at
// [maxTextKey] escaped characters.
func printable(s string) string {
	return cutEscaped(keyspace.Printable(s), maxTextKey)
}

// nameText escapes a name (table, project, instance, a file's label) for
// the text report by btviz's rule for free text, cutting it at
// [maxTextKey] bytes; a name cut says how long it was, as a file's names
// cut when they are read do ([keyspace.MaxTextBytes]).
func nameText(s string) string {
	text := escape.Text(s)
	if len(text) <= maxTextKey {
		return text
	}
	note := sizeNote.FindString(s)
	if note == "" {
		note = "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strings.TrimSuffix(cutEscaped(strings.TrimSuffix(text, note), maxTextKey-len(note)+3), "...") + note
}

// sizeNote matches the note a name cut when it was read ends with.
var sizeNote = regexp.MustCompile(`… \([0-9]+ bytes\)$`)

// cutEscaped cuts escaped text to at most width bytes, ending in "..."
// when cut, never inside a \xNN escape or a UTF-8 sequence.
func cutEscaped(text string, width int) string {
	if len(text) <= width {
		return text
	}
	cut := width - 3
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(text[:cut], '\\'); i >= 0 && cut-i < 4 {
		cut = i
	}
	return text[:cut] + "..."
}

// maxMarkdownKey is how much of a key a Markdown code span shows; the JSON
// report keeps whole keys.
const maxMarkdownKey = 120

// mdKey writes a key as a code span ([mdCode]), cut at [maxMarkdownKey]
// escaped characters with its length in bytes after it when cut.
func mdKey(key string) string {
	text := keyspace.Printable(key)
	if len(text) <= maxMarkdownKey {
		return mdCode(key)
	}
	// Cut the raw key so that the span still shows exact bytes.
	raw := key
	for len(keyspace.Printable(raw)) > maxMarkdownKey {
		raw = raw[:len(raw)*3/4]
	}
	return mdCode(raw) + "... (" + units.Thousands(int64(len(key))) + " bytes)"
}
