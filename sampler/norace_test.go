//go:build !race

package sampler_test

// raceEnabled is true when the tests run under the race detector, which
// slows the emulator down about sevenfold.
const raceEnabled = false
