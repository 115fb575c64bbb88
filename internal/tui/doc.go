// Package tui is btviz's interactive face: a Bubble Tea v2 program that
// shows a table's key space as a heatmap with drill-down into prefixes,
// the selected bucket's details, the findings of [diagnose.Diagnose], the
// largest rows, and a table picker.
//
// [Run] starts the program on a [Config]. Everything it learns about
// Bigtable comes through a [source.Source], whose methods it calls only from
// tea.Cmd functions, never from Update: [NewConnBackend] over a
// [connect.Conn], [NewDemoBackend] over an embedded emulator that loads the
// demo scenarios in the background, and [NewSnapshotBackend] for a saved
// snapshot (`btviz open`).
//
// [RenderFrame] is the headless rendering contract: it draws, without a
// terminal, exactly the frame the interactive program shows for a
// snapshot, its findings, a [ViewState], a size, a theme and a colour
// profile. The program's View calls the same code, so `btviz export` and
// the screenshot key produce identical frames.
//
// Layout, styles and the key map are computed in one place each
// ([NewStyles], [DefaultKeyMap], the layout of a tea.WindowSizeMsg) and
// reach every component through one shared value. Keys are always written
// escaped by [keyspace.Printable] and cut with ansi.Truncate, so no raw key
// byte ever reaches the terminal.
package tui
