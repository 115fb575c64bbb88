package sampler

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// startOfficialEmulator builds the official emulator (cbtemulator) from
// the module cache and starts it on a free loopback port.
func startOfficialEmulator(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cbtemulator")
	build := exec.Command("go", "build", "-o", bin, "cloud.google.com/go/bigtable/cmd/emulator")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the official emulator: %v\n%s", err, out)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := listener.Addr().(*net.TCPAddr).Port
	listener.Close()
	cmd := exec.Command(bin, "-host", "127.0.0.1", "-port", fmt.Sprint(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("the official emulator does not answer at %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestOfficialEmulatorBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the official emulator binary")
	}
	addr := startOfficialEmulator(t)
	conn := openEmulator(t, addr, "")
	rows := prefixedRows(6000, testPrefixes, testWeights)
	createTable(t, conn, "events", "m", "meta")
	load(t, conn, "events", rows)
	want := totalsOf(rows)

	snap, err := Scan(context.Background(), conn, "events", Options{})
	if err != nil {
		t.Fatal(err)
	}
	totals := snap.Totals()
	if snap.Scan.Mode != "full" || snap.Scan.RowsRead != want.rows || int64(totals.Cells) != want.cells ||
		int64(totals.Bytes) != want.bytes || int64(totals.ValueBytes) != want.valueBytes || !snap.Scan.Complete {
		t.Fatalf("scan of the official emulator: mode %s, rows %d, totals %+v; want %+v", snap.Scan.Mode, snap.Scan.RowsRead, totals, want)
	}
	sampled, err := Scan(context.Background(), conn, "events", Options{Fraction: 0.5, Prefix: "alpha#"})
	if err != nil || sampled.Scan.RowsRead == 0 || sampled.Scan.RowsRead >= want.rows {
		t.Fatalf("sampled prefix scan: %v rows, %v", sampled.Scan.RowsRead, err)
	}
}
