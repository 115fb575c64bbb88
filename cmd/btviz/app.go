package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/escape"
)

// app carries the process's environment to every command, so that tests
// can run btviz in-process with their own streams and variables.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// terminal holds the terminal's state while the interactive view
	// runs, for [app.stopNow] and [app.recoverPanic] to put back.
	terminal terminalGuard
	// windDown is how long (ns) the command may take to stop after a
	// signal, when it asked for more than [stopGrace].
	windDown atomic.Int64
	// signalEnds is set by a command that Ctrl+C ends normally (record):
	// a failure then is its own and exits with its own code.
	signalEnds atomic.Bool
}

// resolve turns the target flags into a [connect.Target], reading
// ~/.cbtrc and the environment. scenarios is set when --emulator names no
// emulator, so that the caller starts the embedded one: then it lists the
// demo scenarios to load, only the table's when a table is named (which
// must be a demo table: the embedded emulator holds nothing else).
func (a *app) resolve(flags connect.Flags) (t connect.Target, scenarios []demo.Scenario, err error) {
	rc, err := connect.LoadCbtrc(connect.CbtrcPath(a.getenv))
	if err != nil {
		return t, nil, usageError(err)
	}
	t, err = connect.Resolve(flags, a.getenv, rc)
	switch {
	case errors.Is(err, connect.ErrNoEmulatorHost) && t.Table == "":
		return t, demo.Scenarios(), nil
	case errors.Is(err, connect.ErrNoEmulatorHost):
		scenarios, err := demo.Lookup(t.Table)
		if err != nil {
			return t, nil, usageErrorf("table %s is not a demo table, and the embedded emulator holds only those: %s; to look at your own tables, point %s at your emulator",
				escape.Quote(t.Table), strings.Join(demo.ScenarioNames(), ", "), connect.EmulatorHostEnv)
		}
		return t, scenarios, nil
	case err != nil:
		return t, nil, usageError(err)
	}
	return t, nil, nil
}

// target resolves the target flags; with --emulator and no emulator
// address it starts the embedded emulator and seeds the demo into it
// (stop closes it).
func (a *app) target(ctx context.Context, flags connect.Flags) (t connect.Target, stop func(), err error) {
	t, scenarios, err := a.resolve(flags)
	switch {
	case err != nil:
		return t, nil, err
	case scenarios != nil:
		return a.embeddedDemo(ctx, t, scenarios)
	}
	return t, func() {}, nil
}

// embeddedDemo starts the in-process emulator and loads scenarios into
// t's project and instance.
func (a *app) embeddedDemo(ctx context.Context, t connect.Target, scenarios []demo.Scenario) (connect.Target, func(), error) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		return t, nil, fmt.Errorf("starting the embedded emulator: %w", err)
	}
	t.EmulatorHost = srv.Addr
	stop := func() { srv.Close() }
	if err := a.seed(ctx, t, scenarios); err != nil {
		stop()
		return t, nil, err
	}
	return t, stop, nil
}

// open connects to t and checks that the table exists when one is named,
// before the interactive view starts on it.
func (a *app) open(ctx context.Context, t connect.Target) (*connect.Conn, error) {
	conn, err := connect.Open(ctx, t)
	if err != nil {
		return nil, usageError(err)
	}
	if t.Table != "" {
		if _, err := conn.Table(ctx, t.Table); err != nil {
			conn.Close()
			return nil, usageError(err)
		}
	}
	return conn, nil
}
