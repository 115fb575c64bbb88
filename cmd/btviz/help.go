package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Help layout, in terminal cells.
const (
	// maxHelpWidth is the widest help is written, however wide the
	// terminal: prose beyond it is hard to read.
	maxHelpWidth = 100
	// defaultHelpWidth is the width when neither $COLUMNS nor the
	// terminal says: help piped to a file or a pager.
	defaultHelpWidth = 80
	// minHelpWidth is the narrowest help is laid out for.
	minHelpWidth = 40
	helpIndent   = 2 // sections' titles
	itemIndent   = 4 // their content
	// maxKeyColumn is the widest a flag or command name column grows;
	// a longer name puts its description on the next line.
	maxKeyColumn = 26
	// minDescription is the least room a description column needs beside
	// the names; narrower terminals put every description below its name.
	minDescription = 30
)

// helpWidth is the width help is laid out for: $COLUMNS when set, else
// the terminal's width when stdout is one, else [defaultHelpWidth]; at
// most [maxHelpWidth].
func (a *app) helpWidth() int {
	width := defaultHelpWidth
	if columns, err := strconv.Atoi(strings.TrimSpace(a.getenv("COLUMNS"))); err == nil && columns > 0 {
		width = columns
	} else if f, ok := a.stdout.(*os.File); ok {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			width = w
		}
	}
	return min(max(width, minHelpWidth), maxHelpWidth)
}

// helpStyles colour the help on a terminal (fang's colours, which btviz
// used before it laid help out itself); the writer drops them elsewhere.
type helpStyles struct {
	title, flag, command, program, comment, dim lipgloss.Style
}

func newHelpStyles(isDark bool) helpStyles {
	cs := fang.DefaultColorScheme(lipgloss.LightDark(isDark))
	return helpStyles{
		title:   lipgloss.NewStyle().Bold(true).Foreground(cs.Title),
		flag:    lipgloss.NewStyle().Foreground(cs.Flag),
		command: lipgloss.NewStyle().Foreground(cs.Command),
		program: lipgloss.NewStyle().Foreground(cs.Program),
		comment: lipgloss.NewStyle().Foreground(cs.Comment),
		dim:     lipgloss.NewStyle().Foreground(cs.DimmedArgument),
	}
}

// help writes c's help to its output, laid out for the width of the
// terminal ([app.helpWidth]): every line fits and words are never cut,
// whatever the width. It replaces cobra's and fang's help, which write
// descriptions in one column after the longest name and cut nothing.
func (a *app) help(c *cobra.Command, _ []string) {
	out := c.OutOrStdout()
	isDark := true
	if f, ok := out.(*os.File); ok && term.IsTerminal(f.Fd()) {
		isDark = lipgloss.HasDarkBackground(os.Stdin, f)
	}
	w := colorprofile.NewWriter(out, os.Environ())
	fmt.Fprint(w, renderHelp(c, a.helpWidth(), newHelpStyles(isDark)))
}

// renderHelp lays out c's help for width cells.
func renderHelp(c *cobra.Command, width int, st helpStyles) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, line := range reflow(strings.TrimSpace(cmpOr(c.Long, c.Short)), width-helpIndent) {
		writeLine(&b, helpIndent, line)
	}
	section := func(title string) {
		b.WriteString("\n")
		writeLine(&b, helpIndent, st.title.Render(strings.ToUpper(title)))
	}

	section("usage")
	for _, line := range wrapWords(usageWords(c.UseLine()), width-itemIndent, 2) {
		writeLine(&b, itemIndent, st.program.Render(line))
	}

	if c.Example != "" {
		section("examples")
		for _, line := range exampleLines(c.Example, width-itemIndent) {
			if line == "" {
				b.WriteString("\n")
				continue
			}
			style := st.program
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				style = st.comment
			}
			writeLine(&b, itemIndent, style.Render(line))
		}
	}

	var commands [][2]string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() || sub.Name() == "help" {
			commands = append(commands, [2]string{sub.Name(), sub.Short})
		}
	}
	if len(commands) > 0 {
		section("commands")
		writeTable(&b, commands, width, st.command)
	}

	var flags [][2]string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, [2]string{flagKey(f), flagDescription(f)})
		}
	})
	if len(flags) > 0 {
		section("flags")
		writeTable(&b, flags, width, st.flag)
	}
	if len(commands) > 0 {
		b.WriteString("\n")
		for _, line := range reflow(fmt.Sprintf("Run `%s COMMAND --help` for a command's flags and examples.", c.CommandPath()), width-helpIndent) {
			writeLine(&b, helpIndent, st.dim.Render(line))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// cmpOr returns the first non-empty string.
func cmpOr(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// writeLine writes one line indented by indent spaces, without trailing
// spaces.
func writeLine(b *strings.Builder, indent int, line string) {
	if strings.TrimSpace(line) == "" {
		b.WriteString("\n")
		return
	}
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(strings.TrimRight(line, " "))
	b.WriteString("\n")
}

// writeTable writes names and their descriptions: the descriptions in a
// column beside the names when the terminal has room for it, wrapped in
// it; a name wider than the column, or every name on a narrow terminal,
// puts its description on the lines below it.
func writeTable(b *strings.Builder, rows [][2]string, width int, keyStyle lipgloss.Style) {
	column := 0
	for _, r := range rows {
		if w := ansi.StringWidth(r[0]); w <= maxKeyColumn {
			column = max(column, w)
		}
	}
	column += 2
	descWidth := width - itemIndent - column
	beside := descWidth >= minDescription
	if !beside {
		column, descWidth = 4, width-itemIndent-4
	}
	for _, r := range rows {
		key, lines := r[0], reflow(r[1], descWidth)
		keyWidth := ansi.StringWidth(key)
		if !beside || keyWidth+2 > column {
			writeLine(b, itemIndent, keyStyle.Render(key))
			for _, line := range lines {
				writeLine(b, itemIndent+column, line)
			}
			continue
		}
		first := ""
		if len(lines) > 0 {
			first = lines[0]
		}
		writeLine(b, itemIndent, keyStyle.Render(key)+strings.Repeat(" ", column-keyWidth)+first)
		for _, line := range lines[min(1, len(lines)):] {
			writeLine(b, itemIndent+column, line)
		}
	}
}

// flagValueNames name the value each flag takes in the help ("--table
// T"); a flag missing here is named by its kind ([flagKey]).
var flagValueNames = map[string]string{
	"project": "P", "instance": "I", "table": "T", "app-profile": "ID", "emulator-host": "HOST:PORT",
	"prefix": "P", "start": "KEY", "end": "KEY", "sample": "F", "max-rows": "N", "max-read": "BYTES",
	"concurrency": "N", "delimiters": "CHARS", "snapshot": "FILE", "out": "FILE", "theme": "THEME",
	"screenshot-dir": "DIR", "traffic": "WORKLOAD", "format": "FORMAT", "fail-on": "SEVERITY",
	"images": "DIR", "what-if": "EXPR", "view": "VIEW", "metric": "METRIC", "bucketing": "B",
	"scale": "SCALE", "palette": "PALETTE", "size": "WxH", "listen": "HOST:PORT", "upstream": "HOST:PORT",
	"duration": "D", "host": "HOST", "port": "N", "seed": "NAMES", "scenario": "NAMES",
}

// flagKey is a flag as the help lists it: "-h, --help", "--table T".
func flagKey(f *pflag.Flag) string {
	key := "--" + f.Name
	if f.Shorthand != "" {
		key = "-" + f.Shorthand + ", " + key
	}
	if f.Value.Type() == "bool" {
		return key
	}
	name, ok := flagValueNames[f.Name]
	if !ok {
		switch f.Value.Type() {
		case "int", "int64":
			name = "N"
		case "duration":
			name = "D"
		default:
			name = "VALUE"
		}
	}
	return key + " " + name
}

// flagDescription is a flag's usage, with its default when the usage does
// not say it.
func flagDescription(f *pflag.Flag) string {
	usage := f.Usage
	switch f.DefValue {
	case "", "false", "0", "[]":
	default:
		if !strings.Contains(usage, "default") {
			usage += " (default " + f.DefValue + ")"
		}
	}
	return usage
}

// reflow wraps text to width: lines of prose are joined into paragraphs
// (blank lines part them) and wrapped at spaces; indented lines are
// commands to copy: they keep their line and their indent, and a long one
// continues on the next line with " \" (see [continued]).
func reflow(text string, width int) []string {
	var out, paragraph []string
	flush := func() {
		if len(paragraph) > 0 {
			out = append(out, wrapWords(paragraph, width, 0)...)
			paragraph = nil
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\t", "    "), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
			out = append(out, "")
		case line[0] == ' ':
			flush()
			indent := len(line) - len(strings.TrimLeft(line, " "))
			for _, wrapped := range continued(tokens(trimmed), width-indent) {
				out = append(out, strings.Repeat(" ", indent)+wrapped)
			}
		default:
			paragraph = append(paragraph, strings.Fields(trimmed)...)
		}
	}
	flush()
	return out
}

// wrapWords fills lines of at most width cells with words, in order; the
// lines after the first are indented by hanging spaces. A word wider than
// a line gets a line of its own, whole: it is never cut.
func wrapWords(words []string, width, hanging int) []string {
	var lines []string
	line := ""
	for _, word := range words {
		switch {
		case line == "":
			line = word
			if len(lines) > 0 {
				line = strings.Repeat(" ", hanging) + word
			}
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = strings.Repeat(" ", hanging) + word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// usageWords splits a usage line into words, keeping each bracketed group
// ("[--table T | --snapshot FILE]") whole so that a wrapped line never
// parts a flag from its value.
func usageWords(line string) []string {
	var out []string
	depth := 0
	for _, word := range strings.Fields(line) {
		if depth > 0 {
			out[len(out)-1] += " " + word
		} else {
			out = append(out, word)
		}
		depth += strings.Count(word, "[") - strings.Count(word, "]")
		depth = max(depth, 0)
	}
	return out
}

// tokens splits a command line at spaces outside quotes, so that a quoted
// argument ('salt(8, prefix=3)') stays one word.
func tokens(line string) []string {
	var out []string
	var current strings.Builder
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			current.WriteRune(r)
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
			current.WriteRune(r)
		case unicode.IsSpace(r):
			if current.Len() > 0 {
				out = append(out, current.String())
				current.Reset()
			}
		default:
			current.WriteRune(r)
		}
	}
	if current.Len() > 0 {
		out = append(out, current.String())
	}
	return out
}

// exampleLines lays out a command's examples for width cells so that each
// can still be copied into a shell: a comment that does not fit beside
// its command goes on the line above it, and a command longer than the
// line continues on the next with " \", between arguments.
func exampleLines(example string, width int) []string {
	var out []string
	for _, raw := range strings.Split(strings.Trim(example, "\n"), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		command, comment := splitComment(line)
		if comment != "" {
			out = append(out, wrapWords(strings.Fields(comment), width, 2)...)
		}
		out = append(out, continued(tokens(command), width)...)
	}
	return out
}

// splitComment parts a shell line from its trailing "# comment" (outside
// quotes).
func splitComment(line string) (command, comment string) {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && i > 0 && line[i-1] == ' ':
			return strings.TrimSpace(line[:i]), line[i:]
		}
	}
	return line, ""
}

// continued wraps a command's words into shell lines of at most width
// cells, each but the last ending in " \" and the rest indented.
func continued(words []string, width int) []string {
	lines := wrapWords(words, width-2, 2)
	for i := range lines[:max(len(lines)-1, 0)] {
		lines[i] += " \\"
	}
	return lines
}
