// Package emulator runs an in-process Bigtable emulator and loads demo
// tables into any emulator.
//
// [Start] serves bttest, the emulator behind cbtemulator and
// `gcloud beta emulators bigtable`, on a loopback gRPC port with 256 MiB
// message limits; the rest of btviz reaches it over gRPC exactly like a
// remote emulator. [Dial] connects the official Go client to any emulator
// without credentials.
//
// [Seed] creates one table per scenario of package demo and loads its
// rows through the official client, materializing each cell's value at
// the size the scenario gives (printable filler: btviz reads sizes, never
// values). The package is for demos and tests: nothing on a path to a
// real Bigtable instance needs it.
package emulator
