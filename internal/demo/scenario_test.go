package demo

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/diagnose"
)

// findingKinds are the finding kinds a stored table can raise: every kind
// diagnose reports but those that need a traffic recording and the scan
// notes. A new kind of diagnose.Kinds needs a scenario or test table that
// expects it.
func findingKinds() []string {
	needsTraffic := []diagnose.Kind{diagnose.KindReadHotspot, diagnose.KindWriteHotspot, diagnose.KindHotRow,
		diagnose.KindSequentialWrites, diagnose.KindHeavyScan, diagnose.KindHotTablet, diagnose.KindHighLatency, diagnose.KindScanNote}
	var kinds []string
	for _, k := range diagnose.Kinds() {
		if !slices.Contains(needsTraffic, k) {
			kinds = append(kinds, string(k))
		}
	}
	return kinds
}

func TestScenariosDescribeThemselves(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	expected := map[string]bool{}
	for _, sc := range slices.Concat(Scenarios(), TestTables()) {
		t.Run(sc.Name, func(t *testing.T) {
			if demo := slices.Contains(ScenarioNames(), sc.Name); sc.TestOnly == demo {
				t.Errorf("TestOnly = %v, but the table is in Scenarios: %v", sc.TestOnly, demo)
			}
			if found, ok := Named(sc.Name); !ok || found.Name != sc.Name {
				t.Errorf("Named(%q) does not find it", sc.Name)
			}
			if !kebab.MatchString(sc.Name) || len(sc.Name) > 50 {
				t.Errorf("name %q is not a kebab-case table ID of at most 50 characters", sc.Name)
			}
			if seen[sc.Name] {
				t.Errorf("name %q is used twice", sc.Name)
			}
			seen[sc.Name] = true
			if sc.Description == "" || strings.ContainsAny(sc.Description, "\n\r") || len(sc.Description) > 120 {
				t.Errorf("description %q must be one line of at most 120 bytes", sc.Description)
			}
			if sc.KeyFormat == "" {
				t.Error("KeyFormat is empty")
			}
			if sc.Good != (len(sc.Expect) == 0) {
				t.Errorf("Good = %v with Expect %v: a good scenario expects nothing, a bad one something", sc.Good, sc.Expect)
			}
			for _, kind := range sc.Expect {
				expected[kind] = true
				if !slices.Contains(findingKinds(), kind) {
					t.Errorf("Expect has %q, not a finding kind of diagnose.Kinds that a stored table raises", kind)
				}
			}
			for _, loc := range sc.Locations {
				if !slices.Contains(sc.Expect, loc.Kind) || (loc.Key == "" && loc.Dataset == "") {
					t.Errorf("location %+v must name an expected kind and a key or a dataset", loc)
				}
			}
			if len(sc.Families) == 0 || !slices.IsSorted(sc.Families) || len(slices.Compact(slices.Clone(sc.Families))) != len(sc.Families) {
				t.Errorf("Families %v must be sorted, unique and not empty", sc.Families)
			}
			if sc.Rows < 10_000 && !sc.TestOnly {
				t.Errorf("Rows = %d, want at least 10,000 in a demo table", sc.Rows)
			}
			if !sc.TimeStart.Before(sc.TimeEnd) || !sc.TimeEnd.Equal(DemoNow()) {
				t.Errorf("window [%s, %s) must end at DemoNow()", sc.TimeStart, sc.TimeEnd)
			}
		})
	}
	for _, kind := range []string{"hot-key-range", "sequential-keys", "key-starts-with-timestamp", "sequential-numeric-id",
		"large-row", "large-cell", "frequently-updated-row", "unpadded-number", "hashed-key", "binary-key",
		"pii-in-key", "domain-not-reversed", "too-many-column-families"} {
		if !expected[kind] {
			t.Errorf("no scenario expects %q", kind)
		}
	}
	for _, kind := range findingKinds() {
		if !expected[kind] {
			t.Errorf("no scenario or test table expects %q", kind)
		}
	}
	if !slices.Equal(ScenarioNames(), ScenarioNames()) || len(ScenarioNames()) != len(Scenarios()) {
		t.Error("ScenarioNames must list Scenarios in a stable order")
	}
}

func TestLookup(t *testing.T) {
	all := ScenarioNames()
	tests := []struct {
		spec      string
		want      []string
		wantError string
	}{
		{spec: "all", want: all},
		{spec: " all ", want: all},
		{spec: "bus-locations", want: []string{"bus-locations"}},
		{spec: "social-celebrity, bus-locations,social-celebrity", want: []string{"social-celebrity", "bus-locations"}},
		{spec: "bus-locations,all", want: all},
		{spec: "no-such-table", wantError: `unknown scenario "no-such-table"`},
		{spec: "bus-locations,nope,zilch", wantError: `unknown scenario "nope", "zilch"`},
		{spec: "", wantError: "empty name"},
		{spec: "bus-locations,,hashed-order-keys", wantError: "empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := Lookup(tt.spec)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("Lookup(%q) error = %v, want one containing %q", tt.spec, err, tt.wantError)
				}
				for _, name := range all {
					if !strings.Contains(err.Error(), name) {
						t.Errorf("error %q does not list valid name %q", err, name)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, sc := range got {
				names = append(names, sc.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("Lookup(%q) = %v, want %v", tt.spec, names, tt.want)
			}
		})
	}
}

func TestPackageDocListsEveryScenario(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, sc := range Scenarios() {
		rows += sc.Rows
		line := regexp.MustCompile(`(?m)^//\t` + regexp.QuoteMeta(sc.Name) + ` +([0-9,]+) +(yes|no) *(.*)$`).FindSubmatch(doc)
		if line == nil {
			t.Errorf("doc.go does not list %s", sc.Name)
			continue
		}
		if got, want := string(line[1]), formatThousands(sc.Rows); got != want {
			t.Errorf("doc.go lists %s with %s rows, want %s", sc.Name, got, want)
		}
		if got := string(line[2]) == "yes"; got != sc.Good {
			t.Errorf("doc.go lists %s as good=%v, want %v", sc.Name, got, sc.Good)
		}
		for _, kind := range sc.Expect {
			if !strings.Contains(string(line[3]), kind) {
				t.Errorf("doc.go does not list %s's expected %s", sc.Name, kind)
			}
		}
	}
	if !strings.Contains(string(doc), formatThousands(rows)+" rows") {
		t.Errorf("doc.go does not give the total, %s rows", formatThousands(rows))
	}
}

// formatThousands writes n with comma thousands separators.
func formatThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
