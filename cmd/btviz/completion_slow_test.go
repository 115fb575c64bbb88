//go:build slow

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/tui/tuitest"
)

// shellCase is one completion asked of a shell: the command line typed so
// far and values that must be offered.
type shellCase struct {
	line string
	want []string
}

// shellCases are completions every shell must offer: enumerated values
// and the tables of the emulator $BIGTABLE_EMULATOR_HOST names.
var shellCases = []shellCase{
	{"btviz export --metric ", []string{"writes", "write-share", "read-bytes"}},
	{"btviz export --view ", []string{"heatmap", "findings", "prefixes"}},
	{"btviz export --bucketing ", []string{"prefix", "even", "tablets"}},
	{"btviz export --palette ", []string{"viridis", "heat"}},
	{"btviz report --format ", []string{"text", "json", "markdown"}},
	{"btviz --emulator --traffic ", []string{"read-hotspot", "hot-counter"}},
	{"btviz report --table ", []string{"social-celebrity", "two-datasets"}},
}

// shellEnv is the environment each shell runs in: btviz on the PATH and
// an emulator holding two tables.
func shellEnv(t *testing.T) (binDir string, env []string) {
	t.Helper()
	btviz, _ := buildBinaries(t)
	emulator := seededEmulator(t, "social-celebrity,two-datasets")
	return filepath.Dir(btviz), []string{
		"PATH=" + filepath.Dir(btviz) + string(os.PathListSeparator) + os.Getenv("PATH"),
		connect.EmulatorHostEnv + "=" + emulator[connect.EmulatorHostEnv], "HOME=" + t.TempDir(),
	}
}

func lookShell(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (apt-get install %s)", name, name)
	}
	return path
}

// TestE2EBashCompletes runs `btviz completion bash`'s script in bash and
// asks it, as the shell does on Tab, for each case.
func TestE2EBashCompletes(t *testing.T) {
	bash := lookShell(t, "bash")
	const bashCompletion = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skip("cobra's bash script needs the bash-completion package (apt-get install bash-completion)")
	}
	_, env := shellEnv(t)
	for _, c := range shellCases {
		words := strings.Fields(c.line)
		script := `source ` + bashCompletion + `
source <(btviz completion bash)
COMP_LINE=` + shellQuote(c.line) + `; COMP_POINT=${#COMP_LINE}
COMP_WORDS=(` + strings.Join(quoteAll(words), " ") + ` ""); COMP_CWORD=${#COMP_WORDS[@]}; COMP_CWORD=$((COMP_CWORD-1))
__start_btviz
printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		checkOffered(t, "bash", c, string(out))
	}
}

// TestE2EFishCompletes asks fish's own completion (`complete -C`) with
// `btviz completion fish`'s script loaded.
func TestE2EFishCompletes(t *testing.T) {
	fish := lookShell(t, "fish")
	_, env := shellEnv(t)
	for _, c := range shellCases {
		cmd := exec.Command(fish, "--no-config", "-c", "btviz completion fish | source; complete -C "+shellQuote(c.line))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		checkOffered(t, "fish", c, string(out))
	}
}

// TestE2EZshCompletes types each line into an interactive zsh in tmux,
// with compinit and `btviz completion zsh`'s script loaded, presses Tab
// and reads the listing off the screen.
func TestE2EZshCompletes(t *testing.T) {
	zsh := lookShell(t, "zsh")
	_, env := shellEnv(t)
	term := tuitest.Start(t, tuitest.Options{Width: 200, Height: 50, Env: append(env, "PS1=zsh> ")}, zsh, "-f")
	term.Type("autoload -U compinit && compinit -u && source <(btviz completion zsh) && compdef _btviz btviz && echo READY")
	term.Send("Enter")
	term.WaitFor(t, 30*time.Second, "\nREADY")
	for _, c := range shellCases {
		term.Send("C-l")
		term.Type(c.line)
		term.Send("Tab")
		screen := term.WaitUntil(t, 30*time.Second, "the completions of "+c.line, func(screen string) bool {
			for _, want := range c.want {
				if !strings.Contains(screen, want) {
					return false
				}
			}
			return true
		})
		checkOffered(t, "zsh", c, screen)
		term.Send("C-c")
	}
}

// checkOffered fails unless every wanted value is a word of out.
func checkOffered(t *testing.T, shell string, c shellCase, out string) {
	t.Helper()
	offered := map[string]bool{}
	for _, word := range strings.FieldsFunc(out, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		offered[word] = true
	}
	for _, want := range c.want {
		if !offered[want] {
			t.Errorf("%s: %q<Tab> does not offer %q:\n%s", shell, c.line, want, out)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellQuote(w)
	}
	return out
}
