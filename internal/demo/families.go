package demo

import (
	"fmt"
	"slices"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
)

// Host metrics with one column family per metric: far more families than
// Bigtable recommends.
const (
	familiesHosts       = 200
	familiesRowsPerHost = 50
	familiesWindow      = 24 * time.Hour
	familiesMinPerRow   = 3
	familiesExtraPerRow = 4
	familiesValueColumn = "v"
)

var (
	metricSubsystems = []string{"cpu", "mem", "disk", "net", "gpu", "jvm", "http", "db", "cache", "queue", "auth", "billing"}
	metricStats      = []string{"p50", "p90", "p99", "max", "min", "avg", "count", "errors", "bytes", "rate"}
	hostRoles        = []string{"api", "web", "db", "cache", "queue", "batch", "auth", "search"}
	hostRegions      = []string{"euw1", "use1", "usw2", "apse2", "ane1"}
)

// metricFamilies returns the 120 family names <subsystem>_<stat>, sorted.
func metricFamilies() []string {
	families := make([]string, 0, len(metricSubsystems)*len(metricStats))
	for _, subsystem := range metricSubsystems {
		for _, stat := range metricStats {
			families = append(families, subsystem+"_"+stat)
		}
	}
	slices.Sort(families)
	return families
}

// tooManyFamiliesScenario: host metrics with a column family per metric
// (bad).
//
// Families: 120, named <subsystem>_<stat> (cpu_p99, db_errors, …), more
// than the ~100 Bigtable recommends. Key: <role>-<2 digits>-<region>#<19-digit
// Long.MAX_VALUE-millis>, e.g. api-07-euw1#9223370243364407807, an
// otherwise sound design. Rows: 10,000 (200 hosts × 50 samples in the last
// 24 h), each with one cell <family>:v (a decimal number) in 3–6 random
// families, so every family is used. Expects too-many-column-families.
func tooManyFamiliesScenario() Scenario {
	w := lastWindow(familiesWindow)
	families := metricFamilies()
	return Scenario{
		Name:        "too-many-families",
		Description: "host metrics with one column family per metric: 120 families, over the ~100 recommended (bad)",
		KeyFormat:   "<role>-<nn>-<region>#<Long.MAX_VALUE-millis, 19 digits>",
		Expect:      []string{kindTooManyColumnFamilies},
		Families:    families,
		Rows:        familiesHosts * familiesRowsPerHost,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("too-many-families")
			hosts := make(map[string]bool, familiesHosts)
			for len(hosts) < familiesHosts {
				host := fmt.Sprintf("%s-%02d-%s", pick(r, hostRoles), 1+r.IntN(40), pick(r, hostRegions))
				if hosts[host] {
					continue
				}
				hosts[host] = true
				for _, at := range distinctTimes(r, familiesRowsPerHost, w.start, w.end) {
					n := familiesMinPerRow + r.IntN(familiesExtraPerRow)
					cells := make([]keyspace.Cell, 0, n)
					for _, i := range r.Perm(len(families))[:n] {
						cells = append(cells, cellAt(families[i], familiesValueColumn, at, measure("%.3f", r.Float64()*1000)))
					}
					if err := put(host+"#"+reversedMillis(at), cells...); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}
