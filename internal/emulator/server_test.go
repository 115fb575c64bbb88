package emulator

import (
	"net"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/demo"
)

func TestStartServesOnLoopbackAndClosesIdempotently(t *testing.T) {
	server, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	host, port, err := net.SplitHostPort(server.Addr)
	if err != nil || host != "127.0.0.1" || port == "0" {
		t.Fatalf("Addr = %q, want 127.0.0.1 with a picked port", server.Addr)
	}
	client, admin := dialForTest(t, server.Addr, testInstance)
	ctx := testContext(t, 30*time.Second)
	if err := admin.CreateTable(ctx, "probe"); err != nil {
		t.Fatalf("create table through Dial's admin client: %v", err)
	}
	if err := admin.CreateColumnFamily(ctx, "probe", "f"); err != nil {
		t.Fatal(err)
	}
	mutation := bigtable.NewMutation()
	mutation.Set("f", "c", bigtable.Time(demo.DemoNow().Add(-time.Minute)), []byte("v"))
	if err := client.Open("probe").Apply(ctx, "k", mutation); err != nil {
		t.Fatalf("write through Dial's data client: %v", err)
	}

	for range 2 {
		if err := server.Close(); err != nil {
			t.Fatalf("Close() = %v, want nil", err)
		}
	}
	if conn, err := net.DialTimeout("tcp", server.Addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("emulator still accepts connections on %s after Close", server.Addr)
	}
	var nilServer *Server
	if err := nilServer.Close(); err != nil {
		t.Errorf("Close() on nil = %v, want nil", err)
	}
}

func TestStartReportsBusyAddress(t *testing.T) {
	server, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	_, err = Start(server.Addr)
	if err == nil || !strings.Contains(err.Error(), server.Addr) {
		t.Errorf("Start(%q) on a busy port: error = %v, want one naming the address", server.Addr, err)
	}
}

func TestLargeMessagesRoundTrip(t *testing.T) {
	env := startEmulator(t)
	ctx := testContext(t, time.Minute)
	if err := env.admin.CreateTable(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	if err := env.admin.CreateColumnFamily(ctx, "big", "f"); err != nil {
		t.Fatal(err)
	}
	// 40 MiB in one cell: far above gRPC's default 4 MiB message limit.
	value := make([]byte, 40<<20)
	value[len(value)-1] = 0x42
	mutation := bigtable.NewMutation()
	mutation.Set("f", "c", bigtable.Time(demo.DemoNow().Add(-time.Minute)), value)
	if err := env.client.Open("big").Apply(ctx, "k", mutation); err != nil {
		t.Fatalf("write a 40 MiB cell: %v", err)
	}
	row, err := env.client.Open("big").ReadRow(ctx, "k")
	if err != nil {
		t.Fatalf("read a 40 MiB cell: %v", err)
	}
	if got := row["f"][0].Value; len(got) != len(value) || got[len(got)-1] != 0x42 {
		t.Errorf("read back %d bytes, want %d", len(got), len(value))
	}
}

func TestDialRejectsMalformedAddress(t *testing.T) {
	_, _, err := Dial(testContext(t, 10*time.Second), "bad:address:with:colons:%%", testProject, testInstance)
	if err == nil {
		t.Fatal("Dial() with a malformed address: want an error")
	}
	if !strings.Contains(err.Error(), "host:port") {
		t.Errorf("error = %v, want it to say the expected form", err)
	}
}

func TestDialIgnoresEmulatorHostVariable(t *testing.T) {
	server, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	// An address where nothing listens: Dial must use its argument only.
	t.Setenv("BIGTABLE_EMULATOR_HOST", "127.0.0.1:1")
	_, admin := dialForTest(t, server.Addr, testInstance)
	ctx := testContext(t, 30*time.Second)
	if err := admin.CreateTable(ctx, "probe"); err != nil {
		t.Fatalf("create table at %s with BIGTABLE_EMULATOR_HOST set elsewhere: %v", server.Addr, err)
	}
}
