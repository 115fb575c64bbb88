//go:build slow

package sampler_test

import (
	"context"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/cloudlike"
	"github.com/btviz/btviz/sampler"
)

func TestTimingDemo(t *testing.T) {
	ctx := context.Background()
	conn, scenarios := demoTables(t, cloudlike.ServerOptions(cloudlike.Uneven(16, 3, 0.3), nil)...)
	for _, sc := range scenarios {
		began := time.Now()
		for seed := range uint64(3) {
			if _, err := sampler.Scan(ctx, conn, sc.Name, sampler.Options{Fraction: 0.05, Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%-30s %v", sc.Name, time.Since(began)/3)
	}
}
