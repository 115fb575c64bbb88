package connect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/escape"
)

// Emulator defaults: where `btviz seed` and `btviz emulator --seed` put
// the demo scenarios.
const (
	EmulatorProject  = "local"
	EmulatorInstance = "btviz"
)

// EmulatorHostEnv is the variable the Bigtable clients (and btviz) read
// to find an emulator.
const EmulatorHostEnv = "BIGTABLE_EMULATOR_HOST"

// Target names the table btviz works on and how to reach it.
type Target struct {
	Project    string
	Instance   string
	Table      string
	AppProfile string
	// EmulatorHost is the host:port of a Bigtable emulator; empty means
	// Cloud Bigtable with Application Default Credentials (or Creds).
	EmulatorHost string
	// Creds is a service-account key file (cbt's `creds`), optional.
	Creds string
	// DataEndpoint and AdminEndpoint override Cloud Bigtable's endpoints.
	DataEndpoint, AdminEndpoint string
}

// IsEmulator reports whether the target is an emulator.
func (t Target) IsEmulator() bool { return t.EmulatorHost != "" }

// Where describes the target for messages: "instance "dev" of project "p"
// (emulator at localhost:8086)".
func (t Target) Where() string {
	where := fmt.Sprintf("instance %s of project %s", escape.Quote(t.Instance), escape.Quote(t.Project))
	if t.IsEmulator() {
		return where + " (emulator at " + t.EmulatorHost + ")"
	}
	return where + " (Cloud Bigtable)"
}

// Flags are the target settings given on the command line; empty fields
// were not given.
type Flags struct {
	Project, Instance, Table, AppProfile string
	// Emulator is --emulator: use $BIGTABLE_EMULATOR_HOST, or (when the
	// caller starts one) an embedded emulator.
	Emulator bool
	// EmulatorHost is --emulator-host.
	EmulatorHost string
}

// ErrNoEmulatorHost is returned by [Resolve] when --emulator was asked for
// but no emulator address is known yet; the caller may start the embedded
// emulator and resolve again with its address.
var ErrNoEmulatorHost = errors.New("no emulator address")

// Resolve combines command-line flags, the environment and the cbt
// configuration file into a [Target], as cbt does: flags win, then
// $BIGTABLE_EMULATOR_HOST, then ~/.cbtrc, then $GOOGLE_CLOUD_PROJECT. An
// emulator target ignores ~/.cbtrc (it describes real instances) and
// defaults to project "local", instance "btviz".
func Resolve(flags Flags, getenv func(string) string, rc Cbtrc) (Target, error) {
	t := Target{Project: flags.Project, Instance: flags.Instance, Table: flags.Table, AppProfile: flags.AppProfile}
	t.EmulatorHost = strings.TrimSpace(flags.EmulatorHost)
	if t.EmulatorHost == "" {
		t.EmulatorHost = strings.TrimSpace(getenv(EmulatorHostEnv))
	}
	if t.IsEmulator() {
		t.EmulatorHost = strings.TrimPrefix(t.EmulatorHost, "http://")
		t.Project = firstNonEmpty(t.Project, EmulatorProject)
		t.Instance = firstNonEmpty(t.Instance, EmulatorInstance)
		return t, nil
	}
	if flags.Emulator {
		t.Project = firstNonEmpty(t.Project, EmulatorProject)
		t.Instance = firstNonEmpty(t.Instance, EmulatorInstance)
		return t, ErrNoEmulatorHost
	}
	t.Project = firstNonEmpty(t.Project, rc.Project, getenv("GOOGLE_CLOUD_PROJECT"))
	t.Instance = firstNonEmpty(t.Instance, rc.Instance)
	t.AppProfile = firstNonEmpty(t.AppProfile, rc.AppProfile)
	t.Creds, t.DataEndpoint, t.AdminEndpoint = rc.Creds, rc.DataEndpoint, rc.AdminEndpoint
	var missing []string
	if t.Project == "" {
		missing = append(missing, "--project")
	}
	if t.Instance == "" {
		missing = append(missing, "--instance")
	}
	if len(missing) > 0 {
		source := "~/.cbtrc"
		if rc.Path != "" {
			source = rc.Path
		}
		return t, fmt.Errorf("no Bigtable target: give %s (or set them in %s as `project = …` and `instance = …`), or use --emulator for a local emulator",
			strings.Join(missing, " and "), source)
	}
	return t, nil
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
