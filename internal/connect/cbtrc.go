package connect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Cbtrc holds the settings of the cbt tool's configuration file
// (~/.cbtrc, or the file $CBTRC names): `key = value` lines, `#` comments.
type Cbtrc struct {
	Path          string
	Project       string
	Instance      string
	Creds         string // a service-account key file
	AppProfile    string
	DataEndpoint  string
	AdminEndpoint string
}

// CbtrcPath returns the path of the cbt configuration file: $CBTRC if set,
// otherwise .cbtrc in the home directory.
func CbtrcPath(getenv func(string) string) string {
	if path := getenv("CBTRC"); path != "" {
		return path
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cbtrc")
}

// LoadCbtrc reads the cbt configuration file at path. A missing file is
// not an error (it yields an empty [Cbtrc]); a malformed line is.
func LoadCbtrc(path string) (Cbtrc, error) {
	rc := Cbtrc{Path: path}
	if path == "" {
		return rc, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rc, nil
	}
	if err != nil {
		return rc, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	return parseCbtrc(path, f)
}

// parseCbtrc reads the `key = value` lines of a cbt configuration file
// from r; path names it in errors.
func parseCbtrc(path string, r io.Reader) (Cbtrc, error) {
	rc := Cbtrc{Path: path}
	scanner := bufio.NewScanner(r)
	for line := 1; scanner.Scan(); line++ {
		text := strings.TrimSpace(scanner.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, value, ok := strings.Cut(text, "=")
		if !ok {
			return rc, fmt.Errorf("%s:%d: want `key = value`, got %q", path, line, text)
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "project":
			rc.Project = value
		case "instance":
			rc.Instance = value
		case "creds":
			rc.Creds = value
		case "app-profile":
			rc.AppProfile = value
		case "data-endpoint":
			rc.DataEndpoint = value
		case "admin-endpoint":
			rc.AdminEndpoint = value
		}
		// Other cbt keys (auth-token, cert-file, timeout, user-agent) do
		// not concern btviz and are ignored, as cbt ignores unknown ones.
	}
	if err := scanner.Err(); err != nil {
		return rc, fmt.Errorf("reading %s: %w", path, err)
	}
	return rc, nil
}
