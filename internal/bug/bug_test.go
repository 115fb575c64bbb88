package bug

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func panicsInAGoroutine() (err error) {
	var wg sync.WaitGroup
	wg.Go(func() {
		defer Catch(&err)
		var m map[string]int
		m["\x1b]0;TITLE\x07\nsecond line"] = 1
	})
	wg.Wait()
	return err
}

// TestCatchTurnsAPanicIntoOneLineNamingWhereItHappened: a panic in a
// goroutine comes back as an error, on one line, that names the function
// it started in and asks for a report.
func TestCatchTurnsAPanicIntoOneLineNamingWhereItHappened(t *testing.T) {
	err := panicsInAGoroutine()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *bug.Error", err)
	}
	msg := err.Error()
	for _, want := range []string{"internal error: assignment to entry in nil map", "(at internal/bug.panicsInAGoroutine.func1:", "a bug in btviz", IssuesURL} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("not one line: %q", msg)
	}
}

// TestRecoveredKeepsTheFirstSite: a bug error re-raised further up keeps
// the place the panic started.
func TestRecoveredKeepsTheFirstSite(t *testing.T) {
	first := &Error{Value: "x", Site: "sampler.(*worker).add:1"}
	var got *Error
	func() {
		defer func() { got = Recovered(recover()) }()
		panic(first)
	}()
	if got != first {
		t.Fatalf("got %+v, want the first error", got)
	}
	if Recovered(nil) != nil {
		t.Fatal("no panic is no error")
	}
}
