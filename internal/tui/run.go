package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/source"
	"github.com/btviz/btviz/internal/view"
)

// Config is what [Run] shows and how.
type Config struct {
	// Source reads tables ([session] has them); nil only with Snapshot
	// (then the TUI cannot scan or list tables).
	Source source.Source
	// Table opens this table at once; empty starts on the table picker.
	Table string
	// Snapshot, when set, is shown at once without scanning (`btviz
	// open`); Findings are its findings (nil: diagnosed in the
	// background).
	Snapshot *keyspace.Snapshot
	Findings []diagnose.Finding
	// View is the initial view state (zero: the whole table's heatmap).
	View view.ViewState
	// Theme picks dark or light colours (default [view.ThemeAuto]).
	Theme view.Theme
	// Profile fixes the colour profile; Unknown (the zero value) detects
	// it from the output and the environment (NO_COLOR, TERM, COLORTERM).
	Profile colorprofile.Profile
	// ScreenshotDir is where the screenshot key writes (default: the
	// current directory).
	ScreenshotDir string
	// Environ is the environment for profile detection and for what the
	// copy key can promise (tmux, GNU screen; default os.Environ()).
	Environ []string
	// Now is the clock for screenshot names (default time.Now).
	Now func() time.Time
	// Recording, when set, is a traffic recording in progress: the view
	// is live, joining each table's scan with the traffic recorded so far
	// and taking in more every second.
	Recording source.Recording
	// HotTablets, when set, gives each table's hot tablets: the cpu
	// metric and the hot-tablet findings show them.
	HotTablets source.HotTablets
}

// Run runs the TUI on in and out until the user quits or ctx is
// cancelled, in the alternate screen with the mouse on, and restores the
// terminal before it returns. It does not close cfg.Source. It returns
// nil when the user quits, ctx's error when ctx ended it, and a
// [*bug.Error] when a panic in the view or in a scan it ran ended it (a
// bug in btviz: the terminal is put back all the same).
//
// Run leaves SIGINT and SIGTERM to its caller, which should cancel ctx on
// them (cmd/btviz does): Bubble Tea's own handler races a cancelled
// context, blocking its shutdown forever on a message nobody reads.
func Run(ctx context.Context, cfg Config, in io.Reader, out io.Writer) error {
	if cfg.Source == nil && cfg.Snapshot == nil {
		return errors.New("tui: nothing to show: give a source or a snapshot")
	}
	if cfg.Environ == nil {
		cfg.Environ = os.Environ()
	}
	if cfg.Profile == colorprofile.Unknown {
		cfg.Profile = colorprofile.Detect(out, cfg.Environ)
	}
	// appCtx outlives no part of the program: scans and background waits
	// end with it when Run returns.
	appCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	return runProgram(ctx, New(appCtx, cfg), in, out, cfg)
}

// runProgram runs model as the root of a program on in and out, guarded
// ([guard]): a panic in it quits the program and comes back as a
// [*bug.Error].
//
// When ctx ends, the program is asked to quit, as the quit key would, and
// is killed only if it has not stopped [quitGrace] later (an update that
// runs that long). Killing is Bubble Tea's answer to a cancelled context,
// and it closes the input reader without waiting for the goroutine still
// reading it: a data race that the race detector reported on SIGINT in
// CI. Quitting waits for that goroutine first.
func runProgram(ctx context.Context, model tea.Model, in io.Reader, out io.Writer, cfg Config) error {
	g := &guard{model: model}
	killCtx, kill := context.WithCancel(context.WithoutCancel(ctx))
	defer kill()
	program := tea.NewProgram(g,
		tea.WithContext(killCtx),
		tea.WithInput(in),
		tea.WithOutput(out),
		tea.WithEnvironment(cfg.Environ),
		tea.WithColorProfile(cfg.Profile),
		tea.WithoutSignalHandler(),
		tea.WithoutCatchPanics(),
	)
	g.quit = program.Quit
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		go program.Quit() // blocks while an update runs; returns when Run does
		select {
		case <-done:
		case <-time.After(quitGrace):
			kill()
		}
	}()
	_, err := program.Run()
	switch {
	case g.failed != nil:
		return g.failed
	case ctx.Err() != nil:
		return ctx.Err()
	case err == nil:
		return nil
	}
	return fmt.Errorf("running the terminal UI: %w", err)
}

// quitGrace is how long a program asked to quit because its context ended
// has before it is killed: an update that never returns must not keep
// btviz from stopping on SIGINT, which its tests hold to a second.
const quitGrace = 500 * time.Millisecond
