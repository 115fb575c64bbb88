package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
)

// logLines collects what a proxy logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) count(part string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, part) {
			n++
		}
	}
	return n
}

// relayed returns how many client connections the proxy relays now.
func (p *Proxy) relayed() int {
	p.relaysMu.Lock()
	defer p.relaysMu.Unlock()
	return len(p.relays)
}

// proxyWithoutUpstream starts a proxy in front of a free port that no
// emulator listens on yet, upstreamAddr; the proxy stops when the test
// ends.
func proxyWithoutUpstream(t *testing.T, opts Options) (proxy *Proxy, upstreamAddr string) {
	t.Helper()
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	upstreamAddr = hold.Addr().String()
	hold.Close()
	upstream, err := DialEmulator(upstreamAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { upstream.Close() })
	proxy, err = Listen("127.0.0.1:0", upstream, opts)
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve()
	t.Cleanup(func() { proxy.Stop(context.Background()) })
	return proxy, upstreamAddr
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConnectionsFromWhileTheUpstreamWasDownGoBackToTheRelay: a client
// that connected while the emulator was down is served on the gRPC path
// (which answers Unavailable); once the emulator answers, the client's
// next calls go through the relay, byte for byte, on a new connection,
// not on the gRPC path, which is not.
func TestConnectionsFromWhileTheUpstreamWasDownGoBackToTheRelay(t *testing.T) {
	proxy, upstreamAddr := proxyWithoutUpstream(t, Options{Logf: t.Logf})

	stub := rawStub(t, proxy.Addr())
	table := InstanceName("local", "btviz") + "/tables/" + shopTable
	if a := readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table}); a.code != codes.Unavailable {
		t.Fatalf("with the upstream down the client got %v %q, want Unavailable", a.code, a.message)
	}
	if proxy.relayed() != 0 {
		t.Fatal("a connection is relayed to an emulator that is down")
	}
	srv, err := emulator.Start(upstreamAddr)
	if err != nil {
		t.Skipf("could not take the freed port back for the emulator: %v", err)
	}
	defer srv.Close()
	client, admin := dial(t, upstreamAddr)
	if err := seedShop(context.Background(), client, admin); err != nil {
		t.Fatal(err)
	}
	// Calls are answered again within the proxy's reconnect backoff; the
	// one that finds the emulator back retires the gRPC path's server.
	waitFor(t, "the proxy answers once the emulator is up", 10*time.Second, func() bool {
		return readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table}).code == codes.OK
	})
	waitFor(t, "the client's calls go through the relay", 10*time.Second, func() bool {
		a := readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table})
		return a.code == codes.OK && proxy.relayed() == 1
	})
	for range 3 {
		if a := readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table}); a.code != codes.OK || len(a.responses) == 0 {
			t.Fatalf("through the relay: %v %q, %d responses", a.code, a.message, len(a.responses))
		}
	}
	if n := proxy.relayed(); n != 1 {
		t.Errorf("%d connections relayed, want the client's one", n)
	}
}

// TestOutOfDescriptorsTheProxyWaitsAndGoesOn: when the process runs out
// of file descriptors, accepting fails with EMFILE; the proxy logs it
// once, waits, and takes connections again once descriptors are free,
// instead of stopping.
func TestOutOfDescriptorsTheProxyWaitsAndGoesOn(t *testing.T) {
	srv, err := emulator.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	upstream, err := DialEmulator(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	logs := &logLines{}
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Logf: logs.logf})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- proxy.Serve() }()
	defer proxy.Stop(context.Background())

	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count this process's descriptors: %v", err)
	}
	// Room for a few clients: each takes three descriptors here (the
	// proxy's two, the emulator's); the clients are in a process of
	// their own, as they would be.
	lowered := limit
	lowered.Cur = uint64(len(entries) + 16)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lowered); err != nil {
		t.Skipf("cannot lower the descriptor limit: %v", err)
	}
	func() {
		defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &limit)
		holder := exec.Command(os.Args[0], "-test.run=^TestHoldIdleClients$")
		holder.Env = append(os.Environ(), holdClientsEnv+"="+proxy.Addr())
		holder.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		stdin, err := holder.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := holder.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			stdin.Close() // the holder closes its clients and exits
			holder.Wait()
		}()
		var stopped error
		waitFor(t, "the proxy runs out of descriptors", 10*time.Second, func() bool {
			select {
			case stopped = <-served:
				return true
			default:
				return logs.count("out of file descriptors") > 0
			}
		})
		if stopped == nil {
			select {
			case stopped = <-served:
			case <-time.After(200 * time.Millisecond):
			}
		}
		if stopped != nil {
			t.Fatalf("the proxy stopped when it ran out of descriptors: %v", stopped)
		}
	}()
	stub := rawStub(t, proxy.Addr())
	client, admin := dial(t, srv.Addr)
	if err := seedShop(context.Background(), client, admin); err != nil {
		t.Fatal(err)
	}
	table := InstanceName("local", "btviz") + "/tables/" + shopTable
	waitFor(t, "a new client is served once descriptors are free", 10*time.Second, func() bool {
		return readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table}).code == codes.OK
	})
	if n := logs.count("out of file descriptors"); n != 1 {
		t.Errorf("the proxy logged running out of descriptors %d times, want once", n)
	}
	select {
	case err := <-served:
		t.Fatalf("the proxy stopped: %v", err)
	default:
	}
}

// holdClientsEnv names the proxy address TestHoldIdleClients connects to.
const holdClientsEnv = "BTVIZ_TEST_HOLD_CLIENTS"

// TestHoldIdleClients is not a test: run by
// TestOutOfDescriptorsTheProxyWaitsAndGoesOn in a process of its own, it
// opens 40 idle client connections to the proxy and holds them until its
// standard input closes.
func TestHoldIdleClients(t *testing.T) {
	addr := os.Getenv(holdClientsEnv)
	if addr == "" {
		t.Skip("run by TestOutOfDescriptorsTheProxyWaitsAndGoesOn")
	}
	var clients []net.Conn
	for range 40 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(clientPreface))
		clients = append(clients, c)
	}
	io.Copy(io.Discard, os.Stdin)
	for _, c := range clients {
		c.Close()
	}
}

// TestLargeMessagesAreForwardedAndRecordedFromTheirHead: a cell larger
// than the proxy decodes whole is written and read back through the
// proxy, unchanged; the write is recorded from the message's head (its
// row, its bytes), the read's message is counted as too large, and the
// proxy holds no more than the head of either.
func TestLargeMessagesAreForwardedAndRecordedFromTheirHead(t *testing.T) {
	upstreamAddr, _ := startCloudLike(t)
	for _, path := range forwardingPaths {
		t.Run(path.name, func(t *testing.T) {
			addr, sink, stop := recordingProxy(t, upstreamAddr, path.viaGRPC)
			client, _ := dial(t, addr)
			ctx := context.Background()
			value := bytes.Repeat([]byte("v"), MaxDecodedMessageBytes+(1<<20))
			m := bigtable.NewMutation()
			m.Set("f", "big", bigtable.Now(), value)
			key := "user#big#" + path.name
			if err := client.Open(shopTable).Apply(ctx, key, m); err != nil {
				t.Fatal(err)
			}
			row, err := client.Open(shopTable).ReadRow(ctx, key)
			if err != nil || len(row["f"]) != 1 || !bytes.Equal(row["f"][0].Value, value) {
				t.Fatalf("the large cell read back through the proxy: %v", err)
			}
			stop()
			var write *keyspace.Op
			for _, op := range sink.all() {
				if op.Method == keyspace.MethodMutateRow && len(op.Keys) == 1 && string(op.Keys[0]) == key {
					write = op
				}
			}
			if write == nil || len(write.RowsWritten) != 1 || write.RowsWritten[0].Bytes < int64(len(value)) || write.RowsWritten[0].Bytes > int64(len(value))+200 {
				t.Errorf("the large write is recorded as %+v, want its row and its %d bytes", write, len(value))
			}
			if stats := sink.stats; stats.TooLarge != 2 {
				t.Errorf("%d messages counted as too large, want the write's and the read's", stats.TooLarge)
			}
		})
	}
}

// rawCall writes one HTTP/2 call to w, as a client's connection opens:
// the preface, a HEADERS frame for method path with the extra header
// fields (split over CONTINUATION frames of 16 KB), and the message in
// DATA frames of 16 KB.
func rawCall(w io.Writer, path string, extra []hpack.HeaderField, message []byte) error {
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range append([]hpack.HeaderField{{Name: ":method", Value: "POST"}, {Name: ":scheme", Value: "http"},
		{Name: ":path", Value: path}, {Name: ":authority", Value: "proxy"}, {Name: "content-type", Value: "application/grpc"}}, extra...) {
		if err := enc.WriteField(f); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(clientPreface)
	fr := http2.NewFramer(bw, nil)
	fr.WriteSettings()
	const frameBytes = 16 << 10
	fragment := block.Bytes()
	first := fragment[:min(frameBytes, len(fragment))]
	fragment = fragment[len(first):]
	fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first, EndHeaders: len(fragment) == 0})
	for len(fragment) > 0 {
		piece := fragment[:min(frameBytes, len(fragment))]
		fragment = fragment[len(piece):]
		fr.WriteContinuation(1, len(fragment) == 0, piece)
	}
	data := binary.BigEndian.AppendUint32([]byte{0}, uint32(len(message)))
	data = append(data, message...)
	for len(data) > 0 {
		piece := data[:min(frameBytes, len(data))]
		data = data[len(piece):]
		if err := fr.WriteData(1, len(data) == 0, piece); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// discardingUpstream accepts connections and reads everything sent to
// them, counting the bytes: an upstream for the relay that answers
// nothing.
func discardingUpstream(t *testing.T) (addr string, received func() int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var total atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					total.Add(int64(n))
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String(), total.Load
}

// TestTheProxyHoldsAtMostAMessageHeadPerCall: a 32 MB request and a call
// with a 16 MB header value cross the relay whole, while the proxy
// allocates a few MB for each, not the message or the header: it keeps
// the head of a message over MaxDecodedMessageBytes and stops reading a
// connection's headers at a value over maxHeaderStringBytes.
func TestTheProxyHoldsAtMostAMessageHeadPerCall(t *testing.T) {
	upstreamAddr, received := discardingUpstream(t)
	addr, sink, stop := recordingProxy(t, upstreamAddr, false)
	table := InstanceName("local", "btviz") + "/tables/" + shopTable
	huge := bytes.Repeat([]byte{'v'}, 32<<20)
	var request []byte
	request = protowire.AppendTag(request, 1, protowire.BytesType)
	request = protowire.AppendString(request, table)
	request = protowire.AppendTag(request, 2, protowire.BytesType)
	request = protowire.AppendString(request, "user#huge")
	request = protowire.AppendTag(request, 3, protowire.BytesType)
	request = protowire.AppendBytes(request, huge)
	for _, call := range []struct {
		name    string
		extra   []hpack.HeaderField
		message []byte
	}{
		{"a 32 MB request", nil, request},
		{"a 16 MB header value", []hpack.HeaderField{{Name: "x-huge", Value: strings.Repeat("h", 16<<20)}}, []byte{}},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		var wire bytes.Buffer
		if err := rawCall(&wire, "/google.bigtable.v2.Bigtable/MutateRow", call.extra, call.message); err != nil {
			t.Fatal(err)
		}
		before := received()
		runtime.GC()
		var start runtime.MemStats
		runtime.ReadMemStats(&start)
		if _, err := conn.Write(wire.Bytes()); err != nil {
			t.Fatal(err)
		}
		waitFor(t, call.name+" reaches the upstream", 30*time.Second, func() bool { return received()-before >= int64(wire.Len()) })
		var end runtime.MemStats
		runtime.ReadMemStats(&end)
		if allocated := end.TotalAlloc - start.TotalAlloc; allocated > 8<<20 {
			t.Errorf("%s: the proxy allocated %d MB while relaying it", call.name, allocated>>20)
		}
		conn.Close()
	}
	stop()
	if stats := sink.stats; stats.TooLarge != 1 {
		t.Errorf("%d messages counted as too large, want the 32 MB request", stats.TooLarge)
	}
}
