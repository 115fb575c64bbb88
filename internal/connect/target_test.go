package connect

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestLoadCbtrc(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".cbtrc")
	os.WriteFile(path, []byte("# cbt config\nproject = my-proj\ninstance=prod\n\ncreds = /keys/sa.json\ntimeout = 30s\n"), 0o600)
	rc, err := LoadCbtrc(path)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Project != "my-proj" || rc.Instance != "prod" || rc.Creds != "/keys/sa.json" {
		t.Fatalf("rc = %+v", rc)
	}
	if rc, err := LoadCbtrc(filepath.Join(t.TempDir(), "none")); err != nil || rc.Project != "" {
		t.Fatalf("missing file: %+v, %v", rc, err)
	}
	os.WriteFile(path, []byte("project my-proj\n"), 0o600)
	if _, err := LoadCbtrc(path); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Fatalf("malformed line: err = %v", err)
	}
}

func TestCbtrcPath(t *testing.T) {
	if got := CbtrcPath(env(map[string]string{"HOME": "/h"})); got != "/h/.cbtrc" {
		t.Fatalf("got %q", got)
	}
	if got := CbtrcPath(env(map[string]string{"HOME": "/h", "CBTRC": "/etc/cbt"})); got != "/etc/cbt" {
		t.Fatalf("got %q", got)
	}
}

func TestResolvePrecedence(t *testing.T) {
	rc := Cbtrc{Project: "rc-proj", Instance: "rc-inst", Creds: "/k.json"}
	t.Run("cbtrc fills in", func(t *testing.T) {
		got, err := Resolve(Flags{Table: "events"}, env(nil), rc)
		if err != nil || got.Project != "rc-proj" || got.Instance != "rc-inst" || got.Creds != "/k.json" || got.IsEmulator() {
			t.Fatalf("%+v, %v", got, err)
		}
	})
	t.Run("flags win", func(t *testing.T) {
		got, _ := Resolve(Flags{Project: "p", Instance: "i"}, env(map[string]string{"GOOGLE_CLOUD_PROJECT": "g"}), rc)
		if got.Project != "p" || got.Instance != "i" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("environment project", func(t *testing.T) {
		got, _ := Resolve(Flags{Instance: "i"}, env(map[string]string{"GOOGLE_CLOUD_PROJECT": "g"}), Cbtrc{})
		if got.Project != "g" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("emulator host from environment ignores cbtrc", func(t *testing.T) {
		got, err := Resolve(Flags{}, env(map[string]string{EmulatorHostEnv: "localhost:8086"}), rc)
		if err != nil || !got.IsEmulator() || got.Project != "local" || got.Instance != "btviz" || got.Creds != "" {
			t.Fatalf("%+v, %v", got, err)
		}
	})
	t.Run("emulator flag without host", func(t *testing.T) {
		got, err := Resolve(Flags{Emulator: true, Instance: "other"}, env(nil), rc)
		if !errors.Is(err, ErrNoEmulatorHost) || got.Instance != "other" || got.Project != "local" {
			t.Fatalf("%+v, %v", got, err)
		}
	})
	t.Run("nothing known", func(t *testing.T) {
		_, err := Resolve(Flags{}, env(nil), Cbtrc{Path: "/home/u/.cbtrc"})
		if err == nil || !strings.Contains(err.Error(), "--project and --instance") || !strings.Contains(err.Error(), "/home/u/.cbtrc") || !strings.Contains(err.Error(), "--emulator") {
			t.Fatalf("err = %v", err)
		}
	})
}
