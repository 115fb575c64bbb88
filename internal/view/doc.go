// Package view draws btviz's interactive screen without a terminal: the
// header, the panes (heatmap, prefix table, findings, largest rows, hot
// rows, datasets), the details, the status line with a scan's progress, the
// key help and the table picker, as one string of exactly the terminal's
// size. It holds the [ViewState] (what is shown and how), the [Styles] of
// a theme, the [KeyMap] and the layout, and it runs no program: no Bubble
// Tea runtime, no network, no clock (docs/ARCHITECTURE.md).
//
// [RenderFrame] is the headless rendering contract: it draws exactly the
// frame the interactive program shows for a snapshot, its findings, a
// [ViewState], a size, a theme and a colour profile. The program (package
// tui) draws the same [Frame] with what only a live program has (a scan's
// progress, a message, the search prompt), so `btviz export` and the
// screenshot key produce identical frames.
//
// A pane's keys, clicks and wheel change the view state they are given
// and return an [Action] for what only the program can do ([Frame.Key],
// [Frame.Click], [Frame.Wheel]). Styles, the key map and the layout reach
// every pane through one [Shared] value. Keys are always written escaped by
// [keyspace.Printable] and cut with ansi.Truncate, so no raw key byte ever
// reaches the terminal.
package view
