// Package arch holds the test that keeps btviz's package graph layered as
// docs/ARCHITECTURE.md draws it: each layer imports only those below it,
// the pure core links no terminal, font or network code, one package
// draws glyphs, and the view and the program that runs it link no network
// code. It has no code of its own.
package arch
