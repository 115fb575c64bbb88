// Package tier says which test tier a test binary was built for: the fast
// tier (go test -race ./...) or the slow one (go test -tags slow ./...). A
// test that sweeps a family of cases (sizes, scenarios) takes a sample of
// it in the fast tier and the whole of it in the slow tier, so that CI runs
// every case and a newcomer's run stays short.
package tier

// Sample returns all of cases in the slow tier, and in the fast tier n of
// them spread evenly from the first to the last (all of them when there are
// n or fewer).
func Sample[T any](cases []T, n int) []T {
	if Slow || len(cases) <= n {
		return cases
	}
	if n <= 1 {
		return cases[:max(n, 0)]
	}
	picked := make([]T, 0, n)
	for i := range n {
		picked = append(picked, cases[i*(len(cases)-1)/(n-1)])
	}
	return picked
}
