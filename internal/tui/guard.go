package tui

import (
	"errors"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/btviz/btviz/internal/bug"
)

// guard runs the root model so that a panic in its Init, Update or View,
// or in a command it returns (run on a goroutine of Bubble Tea's), ends
// the program as an error instead of a crash: the program quits through
// its normal shutdown, which puts the terminal back, and [Run] returns
// the [*bug.Error]. Bubble Tea's own recovery is switched off
// ([tea.WithoutCatchPanics]): it writes the panic's value raw and a stack
// trace to stderr, and a panic in a command's goroutine would otherwise
// kill the process.
type guard struct {
	model tea.Model
	// failed is the first panic; the program is quitting. Only the event
	// loop touches it (commands send a [panicMsg]), and [Run] reads it
	// after the loop ended.
	failed *bug.Error
	// last is the last view drawn, shown again while a program whose
	// View panicked quits.
	last tea.View
	// quit asks the program to quit from outside its event loop (View
	// cannot return a command).
	quit func()
}

// panicMsg carries a panic recovered in a command or a goroutine of the
// view to the event loop, which quits on it.
type panicMsg struct{ err *bug.Error }

func (g *guard) Init() (cmd tea.Cmd) {
	defer g.recoverIn(&cmd)
	return g.wrap(g.model.Init())
}

func (g *guard) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	if p, ok := msg.(panicMsg); ok {
		g.fail(p.err)
		return g, tea.Quit
	}
	if g.failed != nil {
		return g, nil // quitting: the model may be in any state
	}
	defer func() {
		if err := bug.Recovered(recover()); err != nil {
			g.fail(err)
			model, cmd = g, tea.Quit
		}
	}()
	if crash := crashTest(msg); crash != nil {
		return g, g.wrap(crash)
	}
	next, cmd := g.model.Update(msg)
	g.model = next
	return g, g.wrap(cmd)
}

func (g *guard) View() (view tea.View) {
	if g.failed != nil {
		return g.last
	}
	defer func() {
		if err := bug.Recovered(recover()); err != nil {
			g.fail(err)
			view = g.last
			go g.quit()
		}
	}()
	g.last = g.model.View()
	return g.last
}

// recoverIn turns a panic in Init into a command that quits.
func (g *guard) recoverIn(cmd *tea.Cmd) {
	if err := bug.Recovered(recover()); err != nil {
		g.fail(err)
		*cmd = tea.Quit
	}
}

func (g *guard) fail(err *bug.Error) {
	if g.failed == nil {
		g.failed = err
	}
}

// orBug returns msg, the result of work that failed with err, unless err
// is a bug recovered in a goroutine of that work ([bug.Error]): that ends
// the view as a panic in it would, rather than showing as a failure the
// user might take for the network's.
func orBug(msg tea.Msg, err error) tea.Msg {
	var crash *bug.Error
	if errors.As(err, &crash) {
		return panicMsg{crash}
	}
	return msg
}

// cmdType is the type of a command, the element type of [tea.BatchMsg]
// and of the sequence [tea.Sequence] makes.
var cmdType = reflect.TypeFor[tea.Cmd]()

// wrap returns cmd with its panics turned into a [panicMsg]. The commands
// of a batch or a sequence run on goroutines of their own once cmd
// returns them, so they are wrapped too: any message that is a list of
// commands (Bubble Tea's sequence type is unexported) comes back as a
// list of the same type of wrapped commands.
func (g *guard) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if err := bug.Recovered(recover()); err != nil {
				msg = panicMsg{err}
			}
		}()
		msg = cmd()
		list := reflect.ValueOf(msg)
		if list.Kind() != reflect.Slice || list.Type().Elem() != cmdType {
			return msg
		}
		wrapped := reflect.MakeSlice(list.Type(), list.Len(), list.Len())
		for i := range list.Len() {
			inner, _ := list.Index(i).Interface().(tea.Cmd)
			if inner = g.wrap(inner); inner != nil {
				wrapped.Index(i).Set(reflect.ValueOf(inner))
			}
		}
		return wrapped.Interface()
	}
}
