package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/btviz/btviz/internal/atomicfile"
	"github.com/btviz/btviz/internal/bug"
)

// stopGrace is how long a command gets to wind down by itself after
// SIGINT or SIGTERM — a scan writes its partial result, the interactive
// view restores the terminal — before btviz stops it: well inside the
// second a user waits after Ctrl+C.
const stopGrace = 400 * time.Millisecond

// run executes btviz with args and returns the process exit code; tests
// call it in-process. SIGINT and SIGTERM cancel the command's context,
// with [interrupted] as the cause: a command that stops on it returns
// an error that wraps it (a scan's, after writing what it read; the
// interactive view's), and exits 128 + the signal's number; one that
// Ctrl+C ends normally (record, emulator) returns nil and exits 0. A
// command still busy [stopGrace] later (or as long as it asked for with
// [app.allowWindDown]), or at a second signal, is abandoned: its
// temporary files are removed, the terminal is restored and run returns
// 128 + the signal's number, for main to exit with.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)

	if _, ok := stderr.(*os.File); !ok {
		stderr = &syncWriter{w: stderr} // a proxy's news comes from its own goroutines
	}
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	done := make(chan int, 1)
	go func() { done <- a.execute(ctx, a.rootCommand(), args) }()
	select {
	case code := <-done:
		return code
	case sig := <-signals:
		cancel(interrupted{sig})
		grace := stopGrace
		if asked := time.Duration(a.windDown.Load()); asked > grace {
			grace = asked
		}
		select {
		case code := <-done:
			if (code == exitUsage || code == exitPartial) && !a.signalEnds.Load() {
				// Failed because the signal cut it short (a read
				// cancelled before any row came, a scan that wrote what
				// it read): the signal's code, as the README promises.
				// A command that the signal ends normally (record) failed
				// by itself, and says so with its own code.
				return interrupted{sig}.exitCode()
			}
			return code
		case <-signals:
		case <-time.After(grace):
		}
		return a.stopNow(sig)
	}
}

// allowWindDown gives the running command up to d to stop by itself
// after SIGINT or SIGTERM instead of [stopGrace]: for a command that has
// work to finish then (a scan writes what it read, a recording writes
// its file).
func (a *app) allowWindDown(d time.Duration) { a.windDown.Store(int64(d)) }

// endsBySignal marks the running command as one that Ctrl+C ends
// normally (record): its exit code is its own, not the signal's.
func (a *app) endsBySignal() { a.signalEnds.Store(true) }

// stopNow abandons a command that did not stop when asked: it removes
// the temporary files of writes in progress, puts the terminal back and
// says so. It returns the exit code of a process stopped by sig.
func (a *app) stopNow(sig os.Signal) int {
	atomicfile.RemoveTemporary()
	a.terminal.restore()
	fmt.Fprintf(a.stderr, "btviz: stopped by %s before the command finished; no partial output was left behind\n", signalName(sig))
	return interrupted{sig}.exitCode()
}

// interrupted is the cause of a command's context cancelled by SIGINT or
// SIGTERM (see [run]); an error that wraps it exits 128 + the signal's
// number ([exitCode]).
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "stopped by " + signalName(e.sig) }

// exitCode is 128 + the signal's number, as a shell reports a process
// the signal stopped.
func (e interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT (Ctrl+C)"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// recoverPanic turns a panic that reached the command boundary into a
// one-line error ([bug.Error]) and [exitInternal]: no stack trace for the
// user, but where it happened and where to report it. Deferred clean-up
// of the panicking goroutine has run by now; the terminal is put back in
// case the interactive view was running.
func (a *app) recoverPanic(code *int) {
	err := bug.Recovered(recover())
	if err == nil {
		return
	}
	a.terminal.restore()
	printError(a.stderr, err)
	*code = exitInternal
}

// terminalGuard remembers the terminal's state while the interactive view
// runs, so that btviz can put the terminal back if it has to abandon the
// view (a panic, or a view that does not answer SIGINT).
type terminalGuard struct {
	mu    sync.Mutex
	in    *os.File
	out   io.Writer
	state *term.State
}

// save records in's state before the interactive view changes it.
func (g *terminalGuard) save(in *os.File, out io.Writer) {
	state, err := term.GetState(in.Fd())
	if err != nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.in, g.out, g.state = in, out, state
}

// forget drops the saved state once the view has restored the terminal.
func (g *terminalGuard) forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.in, g.out, g.state = nil, nil, nil
}

// terminalReset undoes every mode the interactive view turns on.
var terminalReset = ansi.ResetModeSynchronizedOutput + ansi.ResetStyle +
	ansi.ResetModeMouseNormal + ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr +
	ansi.ResetModeBracketedPaste + ansi.ResetModeFocusEvent + ansi.ResetModeUnicodeCore +
	ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) +
	ansi.ResetModeAltScreenSaveCursor + ansi.SetModeTextCursorEnable

// restore puts the terminal back as it was before the view, if the view
// is running.
func (g *terminalGuard) restore() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.state == nil {
		return
	}
	io.WriteString(g.out, terminalReset)
	term.Restore(g.in.Fd(), g.state)
	g.in, g.out, g.state = nil, nil, nil
}

// syncWriter serializes writes to a writer that the command and the
// goroutines it starts (a recording proxy reporting its upstream) share.
// A terminal or file needs none: each write to an [os.File] is one call.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
