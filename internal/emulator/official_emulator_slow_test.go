//go:build slow

package emulator

import (
	"testing"
	"time"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/testkit/cbtemulator"
)

// TestSeedIntoOfficialEmulator builds the official emulator binary
// (cbtemulator, from the same Bigtable module), starts it on a free
// loopback port and seeds and reads back scenarios through the official
// client, as `btviz seed` does against `gcloud beta emulators bigtable`.
func TestSeedIntoOfficialEmulator(t *testing.T) {
	t.Parallel()
	addr := cbtemulator.Start(t)
	ctx := testContext(t, 3*time.Minute)
	client, admin := dialForTest(t, addr, testInstance)

	scenarios, err := demo.Lookup("large-row-and-cell,social-celebrity,memusage-single-row,binary-sensor-keys")
	if err != nil {
		t.Fatal(err)
	}
	if err := Seed(ctx, admin, client, scenarios, nil); err != nil {
		t.Fatalf("seed the official emulator at %s: %v", addr, err)
	}
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			verifyScenario(t, ctx, client, admin, sc)
		})
	}
}
