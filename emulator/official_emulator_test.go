package emulator

import (
	"bufio"
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSeedIntoOfficialEmulator builds the official emulator binary
// (cbtemulator, from the same Bigtable module), starts it on a free
// loopback port and seeds and reads back scenarios through the official
// client, as `btviz seed` does against `gcloud beta emulators bigtable`.
func TestSeedIntoOfficialEmulator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the official emulator binary; skipped with -short")
	}
	addr := startOfficialEmulator(t)
	ctx := testContext(t, 3*time.Minute)
	client, admin := dialForTest(t, addr, testInstance)

	scenarios, err := Lookup("large-row-and-cell,social-celebrity,memusage-single-row,binary-sensor-keys")
	if err != nil {
		t.Fatal(err)
	}
	if err := Seed(ctx, admin, client, scenarios, nil); err != nil {
		t.Fatalf("seed the official emulator at %s: %v", addr, err)
	}
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			verifyScenario(t, ctx, client, admin, sc)
		})
	}
}

// startOfficialEmulator builds cbtemulator into a temporary directory,
// starts it on 127.0.0.1 with port 0 (the emulator prints the address it
// got, so no port can be taken in between), waits until it accepts
// connections and kills it when the test ends. It returns host:port.
func startOfficialEmulator(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("find the go command to build the official emulator: %v", err)
	}
	binary := filepath.Join(t.TempDir(), "cbtemulator")
	build := exec.Command(goTool, "build", "-o", binary, "cloud.google.com/go/bigtable/cmd/emulator")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build cloud.google.com/go/bigtable/cmd/emulator: %v\n%s", err, out)
	}

	cmd := exec.Command(binary, "-host", "127.0.0.1", "-port", "0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", binary, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})

	running := regexp.MustCompile(`running on (\S+)`)
	found := make(chan string, 1)
	go func() {
		defer close(found)
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if m := running.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		for lines.Scan() { // keep draining so the emulator never blocks
		}
	}()
	var addr string
	select {
	case a, ok := <-found:
		if !ok {
			t.Fatalf("official emulator exited without saying where it listens; stderr:\n%s", stderr.String())
		}
		addr = a
	case <-time.After(30 * time.Second):
		t.Fatalf("official emulator did not report its address within 30 s; stderr:\n%s", stderr.String())
	}

	deadline := time.Now().Add(15 * time.Second)
	for {
		conn, err := (&net.Dialer{Timeout: time.Second}).DialContext(context.Background(), "tcp", addr)
		if err == nil {
			conn.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("official emulator at %s does not accept connections: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockedBuffer collects a process's output while the test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
