package demo

import (
	"fmt"
	"slices"
	"strings"
)

// Scenarios returns every demo scenario, the tables `btviz seed` loads, in
// a stable order: good and bad variants of a pattern next to each other.
// The result is a fresh slice the caller may modify.
func Scenarios() []Scenario {
	return []Scenario{
		timeseriesReversedScenario(),
		timeseriesTimestampFirstScenario(),
		usersSequentialScenario(),
		usersReversedScenario(),
		celebrityScenario(),
		celebritySaltedScenario(),
		phoneDeviceDayScenario(),
		multitenantScenario(),
		busLocationsScenario(),
		domainsForwardScenario(),
		domainsReversedScenario(),
		largeRowAndCellScenario(),
		memusageRowScenario(),
		unpaddedIDsScenario(),
		hashedKeysScenario(),
		binaryKeysScenario(),
		piiKeysScenario(),
		tooManyFamiliesScenario(),
		usersNoDelimiterScenario(),
		usersHashedScenario(),
		accountsHotTenthScenario(),
		twoDatasetsScenario(),
		newcomerScenario(),
	}
}

// ScenarioNames returns the names of [Scenarios], in the same order.
func ScenarioNames() []string {
	all := Scenarios()
	names := make([]string, len(all))
	for i, sc := range all {
		names[i] = sc.Name
	}
	return names
}

// Lookup resolves a demo scenario spec: "all", or comma-separated names
// such as "bus-locations,social-celebrity". Names are trimmed, duplicates
// dropped and the spec's order kept. An unknown or empty name, or a test
// table, is an error that lists the valid names.
func Lookup(spec string) ([]Scenario, error) {
	all := Scenarios()
	if strings.TrimSpace(spec) == "all" {
		return all, nil
	}
	var (
		picked  []Scenario
		unknown []string
	)
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("scenario list %q has an empty name; use \"all\" or comma-separated names from: %s",
				spec, strings.Join(ScenarioNames(), ", "))
		}
		if name == "all" {
			return all, nil
		}
		if slices.ContainsFunc(picked, func(sc Scenario) bool { return sc.Name == name }) {
			continue
		}
		i := slices.IndexFunc(all, func(sc Scenario) bool { return sc.Name == name })
		if i < 0 {
			unknown = append(unknown, fmt.Sprintf("%q", name))
			continue
		}
		picked = append(picked, all[i])
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown scenario %s; use \"all\" or names from: %s",
			strings.Join(unknown, ", "), strings.Join(ScenarioNames(), ", "))
	}
	return picked, nil
}
