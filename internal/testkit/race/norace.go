//go:build !race

// Package race says whether the running test binary was built with the
// race detector, which slows in-process emulators and scans about
// sevenfold and is why a test may build what it runs with -race too.
package race

// Enabled is true when the binary was built with -race.
const Enabled = false
