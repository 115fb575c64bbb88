package main

import (
	"errors"
	"fmt"

	"github.com/btviz/btviz/internal/bug"
)

// Exit codes, as the README promises them to scripts and CI (its **Exit
// codes**, under "Commands").
const (
	exitOK       = 0
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // bad flag, unreadable snapshot, table not found
	exitPartial  = 3 // scan failed part-way; the partial result was written
	// exitInternal is a bug in btviz: a panic recovered at the command
	// boundary, in the interactive view or in a scan's or a recording's
	// goroutine (EX_SOFTWARE of sysexits.h).
	exitInternal = 70
	// exitInterrupted is a command stopped by a signal that is not a
	// [syscall.Signal]; SIGINT and SIGTERM exit 128 + their number (130,
	// 143), as a shell reports them (see [interrupted]).
	exitInterrupted = 130
)

// exitError carries an exit code with the error that explains it.
type exitError struct {
	code int
	err  error
	// help says that --help explains the mistake (a bad flag or command).
	help bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as a usage or input error (exit 2).
func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

// usageErrorf formats a usage or input error (exit 2).
func usageErrorf(format string, args ...any) error {
	return usageError(fmt.Errorf(format, args...))
}

// flagError marks a command-line mistake that --help explains (exit 2).
func flagError(err error) error { return &exitError{code: exitUsage, err: err, help: true} }

// partialError marks err as a scan that stopped part-way (exit 3).
func partialError(err error) error { return &exitError{code: exitPartial, err: err} }

// errFindingsGate is returned when findings reach --fail-on; the report
// itself was already written, so there is nothing more to say.
var errFindingsGate = &exitError{code: exitFindings, err: errors.New("findings at or above --fail-on")}

// exitCode maps the error a command returned to the process exit code.
// A bug ([bug.Error]) anywhere in it is [exitInternal], whatever else
// the error says (a scan that stopped part-way because of one is still a
// bug); then a stop by SIGINT or SIGTERM ([interrupted]) is 128 + the
// signal's number, also for a scan that wrote what it read before it
// stopped (3 otherwise). Errors that carry no code are operational failures of a whole
// run (nothing written): treated as input errors, exit 2.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var crash *bug.Error
	if errors.As(err, &crash) {
		return exitInternal
	}
	var stop interrupted
	if errors.As(err, &stop) {
		return stop.exitCode() // also a scan that wrote what it read
	}
	var coded *exitError
	if errors.As(err, &coded) {
		return coded.code
	}
	return exitUsage
}
