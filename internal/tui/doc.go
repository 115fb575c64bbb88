// Package tui is btviz's interactive face: the Bubble Tea v2 program that
// shows a table's key space as a heatmap with drill-down into prefixes,
// the selected bucket's details, the findings of [diagnose.Diagnose], the
// largest rows, and a table picker. It holds the root [Model], its Update
// and the commands it runs; package view draws every frame.
//
// [Run] starts the program on a [Config]. Everything it learns about
// Bigtable comes through a [source.Source] (package session has them: a
// connection, the demo emulator, saved files, a live recording), whose
// methods it calls only from tea.Cmd functions, never from Update. The
// package itself links no network code (docs/ARCHITECTURE.md).
//
// Keys, clicks and the wheel reach the pane with the keyboard through
// package view, which changes the level's [view.ViewState] and returns a
// [view.Action] for what needs the program: drill into a bucket (a scan),
// jump to a key, show a finding.
package tui
