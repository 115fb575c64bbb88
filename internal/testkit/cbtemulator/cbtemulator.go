// Package cbtemulator builds and runs the official Bigtable emulator
// binary (cloud.google.com/go/bigtable/cmd/emulator, the cbtemulator that
// gcloud's emulator also runs) for end-to-end tests, so that btviz is
// tested against the real server and not only the in-process one.
package cbtemulator

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/internal/units"
)

// Package is the import path of the official emulator's main package.
const Package = "cloud.google.com/go/bigtable/cmd/emulator"

// startTimeout bounds how long the emulator may take to say where it
// listens and to accept a connection.
const startTimeout = 30 * time.Second

// Build compiles the official emulator into dir and returns its path.
func Build(dir string) (string, error) {
	binary := filepath.Join(dir, "cbtemulator")
	out, err := exec.Command("go", "build", "-o", binary, Package).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", Package, err, out)
	}
	return binary, nil
}

// Process is a running official emulator.
type Process struct {
	// Addr is the host:port it serves on.
	Addr string
	cmd  *exec.Cmd
	log  *syncBuffer
}

// running matches the line the emulator prints once it listens.
var running = regexp.MustCompile(`running on (\S+)`)

// Run starts binary on a free loopback port — port 0, the emulator
// printing the address it got, so that no other process can take the
// port in between — and waits until it accepts connections.
func Run(binary string) (*Process, error) {
	p := &Process{cmd: exec.Command(binary, "-host", "127.0.0.1", "-port", "0"), log: &syncBuffer{}}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.cmd.Stderr = p.log
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if m := running.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		close(found)
		for lines.Scan() { // keep draining, so the emulator never blocks on its output
		}
	}()
	select {
	case addr, ok := <-found:
		if !ok {
			p.Stop()
			return nil, fmt.Errorf("the official emulator exited without saying where it listens: %s", p.log)
		}
		p.Addr = addr
	case <-time.After(startTimeout):
		p.Stop()
		return nil, fmt.Errorf("the official emulator did not say where it listens within %s: %s", units.Duration(startTimeout), p.log)
	}
	if err := waitForPort(p.Addr); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// Stop kills the emulator and waits for it.
func (p *Process) Stop() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

func waitForPort(addr string) error {
	deadline := time.Now().Add(startTimeout)
	for {
		conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(context.Background(), "tcp", addr)
		if err == nil {
			return conn.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the official emulator at %s does not accept connections: %w", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// BinaryEnv names the environment variable that gives tests the path of
// an official emulator binary built beforehand (CI builds it once per run,
// see .ci/run); when it is unset, [Binary] builds one.
const BinaryEnv = "BTVIZ_TEST_CBTEMULATOR"

// built is the binary [Binary] built, once per test process.
var built struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of the official emulator binary: $BTVIZ_TEST_CBTEMULATOR
// if set, else one built once per test process into the user's cache
// directory, named by the Go and module versions it was built from, so that
// the packages of one `go test` run, and later runs, build it once.
func Binary(t testing.TB) string {
	t.Helper()
	if path := os.Getenv(BinaryEnv); path != "" {
		return path
	}
	built.once.Do(func() { built.path, built.err = buildCached() })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// buildCached builds the emulator into the user's cache directory unless a
// binary of the same versions is there; it builds into a temporary name and
// renames, so that two packages building at once both end with a whole file.
func buildCached() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "btviz-test")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "cbtemulator-"+buildKey())
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	binary, err := Build(tmp)
	if err != nil {
		return "", err
	}
	return path, os.Rename(binary, path)
}

// buildKey names a build by the Go version and the version of the module
// the emulator comes from, as this test binary was built with them.
func buildKey() string {
	version := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == module {
				version = dep.Version
			}
		}
	}
	return safeName.ReplaceAllString(runtime.Version()+"-"+version, "_")
}

// module is the module [Package] belongs to.
const module = "cloud.google.com/go/bigtable"

// safeName matches what may not stand in a file name.
var safeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// Start runs the official emulator ([Binary]) for the test, stops it when
// the test ends, and returns its host:port.
func Start(t testing.TB) string {
	t.Helper()
	p, err := Run(Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p.Addr
}

// syncBuffer collects the emulator's stderr while a test may read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() == 0 {
		return "(no output)"
	}
	return b.buf.String()
}
