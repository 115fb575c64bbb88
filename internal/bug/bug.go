// Package bug turns a panic — always a bug in btviz, never a problem with
// the user's input — into an error that says so in one line: what went
// wrong, where, and where to report it. btviz recovers panics where they
// can happen: at the command boundary, in the interactive view (its
// updates, views and commands) and in the goroutines of a scan and of a
// recording proxy. Each hands the [*Error] on as an error, and the command
// exits 70 (EX_SOFTWARE) with its line instead of dying with Go's stack
// trace and exit 2.
//
// A recovered panic is never swallowed: it stops the work it happened in
// and reaches the user as this error, whatever else went wrong.
package bug

import (
	"fmt"
	"runtime"
	"strings"
)

// IssuesURL is where a user reports a bug.
const IssuesURL = "https://github.com/btviz/btviz/issues"

// Error is a recovered panic.
type Error struct {
	// Value is what was passed to panic.
	Value any
	// Site is the function and line the panic started in
	// ("sampler.(*worker).add:212"), or "unknown".
	Site string
}

// Error says what went wrong, where, and to report it, on one line. The
// panic's value is not escaped here: it may quote input, and every output
// escapes errors as it writes them.
func (e *Error) Error() string {
	return fmt.Sprintf("internal error: %s (at %s); this is a bug in btviz: please report it with the command you ran at %s",
		oneLine(fmt.Sprint(e.Value)), e.Site, IssuesURL)
}

// Recovered turns p, what recover returned in a deferred function, into
// an [*Error] naming where the panic started; it returns nil when p is
// nil (no panic). Call it in the deferred function itself, so that the
// panicking stack is still there to read:
//
//	defer func() {
//		if err := bug.Recovered(recover()); err != nil { … }
//	}()
func Recovered(p any) *Error {
	if p == nil {
		return nil
	}
	if e, ok := p.(*Error); ok {
		return e // re-raised: it already knows where it started
	}
	return &Error{Value: p, Site: site()}
}

// Catch, deferred by a function that returns an error, turns a panic in
// that function into an [*Error] it returns:
//
//	func (w *worker) run() (err error) {
//		defer bug.Catch(&err)
//		…
//	}
func Catch(err *error) {
	if e := Recovered(recover()); e != nil {
		*err = e
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// site names the function and line a panic started in: the first frame
// below runtime.gopanic that is not the runtime's, with the module's path
// left out.
func site() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		frame, more := frames.Next()
		switch {
		case frame.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(frame.Function, "runtime."):
			return fmt.Sprintf("%s:%d", strings.TrimPrefix(frame.Function, "github.com/btviz/btviz/"), frame.Line)
		}
		if !more {
			return "unknown"
		}
	}
}
