// Package report renders a snapshot and its findings as the output of
// `btviz report`: JSON in the stable shape the README's "Files" section gives ([JSON]), Markdown
// ready to paste into a design review ([Markdown]) and a compact terminal
// form ([Text]). All three are pure functions of an [Input]; [Gate] is
// the --fail-on exit-code rule.
//
// Keys are always written escaped by [keyspace.Printable] (the JSON says
// so in "key_escaping"); Markdown additionally puts them in code spans
// that backticks and pipes in keys cannot break. Every other string from
// a snapshot — names, the source, the scan's mode, method and reason for
// stopping, diff labels — is escaped by [escape.Text] when [Build] and
// [BuildDiff] make the document, so no output, JSON included, holds a
// control, bidirectional or invisible formatting character from it.
package report
