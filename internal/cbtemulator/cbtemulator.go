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
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btviz/btviz/units"
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

// Start builds and runs the official emulator for the test, stops it when
// the test ends, and returns its host:port. It skips the test under
// -short.
func Start(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the official emulator binary")
	}
	binary, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := Run(binary)
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
