//go:build slow

package tier

// Slow is true in the slow tier (go test -tags slow).
const Slow = true
