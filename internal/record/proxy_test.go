package record

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/btviz/btviz/internal/emulator"
	"github.com/btviz/btviz/internal/keyspace"
)

// cloudLike is a test interceptor in front of the real emulator that
// answers the way Cloud Bigtable does and the emulator does not: with
// response headers and trailers, and errors that carry details. It also
// keeps the metadata each call arrived with.
type cloudLike struct {
	mu       sync.Mutex
	incoming []metadata.MD
}

func (c *cloudLike) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	md, _ := metadata.FromIncomingContext(ss.Context())
	c.mu.Lock()
	c.incoming = append(c.incoming, md)
	c.mu.Unlock()
	ss.SetHeader(metadata.Pairs("x-server-header", "h1", "x-server-bin", "\x00\xff"))
	ss.SetTrailer(metadata.Pairs("x-server-trailer", "t1"))
	if v := md.Get("x-fail-with-details"); len(v) > 0 {
		st, err := status.New(codes.FailedPrecondition, "refused: "+v[0]).WithDetails(wrapperspb.String("detail one"), wrapperspb.Int64(42))
		if err != nil {
			return err
		}
		return st.Err()
	}
	return handler(srv, ss)
}

func (c *cloudLike) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	c.mu.Lock()
	c.incoming = append(c.incoming, md)
	c.mu.Unlock()
	grpc.SetHeader(ctx, metadata.Pairs("x-server-header", "unary"))
	grpc.SetTrailer(ctx, metadata.Pairs("x-server-trailer", "unary"))
	return handler(ctx, req)
}

func (c *cloudLike) last() metadata.MD {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.incoming[len(c.incoming)-1]
}

// startCloudLike starts the embedded emulator behind a cloudLike
// interceptor, with the shop table loaded.
func startCloudLike(t *testing.T) (string, *cloudLike) {
	t.Helper()
	intercept := &cloudLike{}
	srv, err := emulator.Start("127.0.0.1:0", grpc.ChainStreamInterceptor(intercept.stream), grpc.ChainUnaryInterceptor(intercept.unary))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, admin := dial(t, srv.Addr)
	if err := seedShop(context.Background(), client, admin); err != nil {
		t.Fatal(err)
	}
	return srv.Addr, intercept
}

// onEachPath starts the cloud-like emulator once and runs check against
// it on each of the proxy's forwarding paths.
func onEachPath(t *testing.T, check func(t *testing.T, upstreamAddr string, intercept *cloudLike, viaGRPC bool)) {
	upstreamAddr, intercept := startCloudLike(t)
	for _, path := range forwardingPaths {
		t.Run(path.name, func(t *testing.T) { check(t, upstreamAddr, intercept, path.viaGRPC) })
	}
}

func rawStub(t *testing.T, addr string) btpb.BigtableClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return btpb.NewBigtableClient(conn)
}

// answer is everything a client can observe of one call.
type answer struct {
	header, trailer metadata.MD
	responses       []string
	code            codes.Code
	message         string
	details         []string
}

func readRowsAnswer(ctx context.Context, stub btpb.BigtableClient, req *btpb.ReadRowsRequest) answer {
	var a answer
	stream, err := stub.ReadRows(ctx, req)
	if err == nil {
		for {
			var resp *btpb.ReadRowsResponse
			if resp, err = stream.Recv(); err != nil {
				break
			}
			a.responses = append(a.responses, fmt.Sprintf("%x", mustMarshal(resp)))
		}
		a.header, _ = stream.Header()
		a.trailer = stream.Trailer()
	}
	st := status.Convert(err)
	a.code, a.message = st.Code(), st.Message()
	if st.Code() == codes.Unknown && st.Message() == "EOF" {
		a.code, a.message = codes.OK, ""
	}
	for _, d := range st.Details() {
		a.details = append(a.details, fmt.Sprint(d))
	}
	// The transport's own headers belong to each connection.
	delete(a.header, "content-type")
	return a
}

// rawFrame is a frame of the given bytes, to send as they are.
func rawFrame(b []byte) *frame { return &frame{data: mem.BufferSlice{mem.SliceBuffer(b)}} }

func mustMarshal(m proto.Message) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func TestProxyReturnsExactlyWhatTheUpstreamSent(t *testing.T) { onEachPath(t, checkAnswersUnchanged) }

func checkAnswersUnchanged(t *testing.T, upstreamAddr string, intercept *cloudLike, viaGRPC bool) {
	proxyAddr, sink, stop := recordingProxy(t, upstreamAddr, viaGRPC)
	direct, proxied := rawStub(t, upstreamAddr), rawStub(t, proxyAddr)
	table := InstanceName("local", "btviz") + "/tables/" + shopTable
	prefix := &btpb.RowSet{RowRanges: []*btpb.RowRange{{
		StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte("user#bob#")},
		EndKey:   &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte("user#bob$")},
	}}}
	cases := []struct {
		name string
		md   metadata.MD
		req  *btpb.ReadRowsRequest
		want codes.Code
	}{
		{"a scan", metadata.Pairs("x-client", "c1", "x-client-bin", "\x01\x02"), &btpb.ReadRowsRequest{TableName: table, Rows: prefix}, codes.OK},
		{"an error with details", metadata.Pairs("x-fail-with-details", "because"), &btpb.ReadRowsRequest{TableName: table}, codes.FailedPrecondition},
		{"a missing table", nil, &btpb.ReadRowsRequest{TableName: table + "-missing"}, codes.NotFound},
	}
	for _, c := range cases {
		ctx := metadata.NewOutgoingContext(context.Background(), c.md)
		want := readRowsAnswer(ctx, direct, c.req)
		sentDirectly := intercept.last()
		got := readRowsAnswer(ctx, proxied, c.req)
		sentThrough := intercept.last()
		if want.code != c.want {
			t.Fatalf("%s: the emulator answered %v, want %v: the test is broken", c.name, want.code, c.want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: through the proxy the client saw\n  %+v\nbut directly\n  %+v", c.name, got, want)
		}
		for key := range c.md {
			if !reflect.DeepEqual(sentThrough[key], sentDirectly[key]) {
				t.Errorf("%s: metadata %s reached the upstream as %q through the proxy, %q directly", c.name, key, sentThrough[key], sentDirectly[key])
			}
		}
	}
	stop()
	var read int
	for _, op := range sink.all() {
		read += len(op.RowsRead)
	}
	if read != 50 {
		t.Errorf("the recording read %d rows, want the 50 of user#bob#", read)
	}
}

func TestProxyForwardsServicesItDoesNotKnow(t *testing.T) { onEachPath(t, checkUnknownServices) }

func checkUnknownServices(t *testing.T, upstreamAddr string, _ *cloudLike, viaGRPC bool) {
	proxyAddr, _, _ := recordingProxy(t, upstreamAddr, viaGRPC)
	call := func(addr string) error {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var reply wrapperspb.StringValue
		return conn.Invoke(context.Background(), "/example.Unknown/Method", wrapperspb.String("hi"), &reply)
	}
	want, got := call(upstreamAddr), call(proxyAddr)
	if status.Code(want) != codes.Unimplemented || status.Convert(got).Proto().String() != status.Convert(want).Proto().String() {
		t.Errorf("an unknown service through the proxy: %v; directly: %v", got, want)
	}
	// The admin API goes through too: the table list comes back whole.
	_, admin := dial(t, proxyAddr)
	tables, err := admin.Tables(context.Background())
	if err != nil || !reflect.DeepEqual(tables, []string{shopTable}) {
		t.Errorf("listing tables through the proxy: %v, %v; want [%s]", tables, err, shopTable)
	}
}

func TestUndecodableFramesAreForwardedUnchanged(t *testing.T) { onEachPath(t, checkUndecodable) }

func checkUndecodable(t *testing.T, upstreamAddr string, _ *cloudLike, viaGRPC bool) {
	upstream, err := DialEmulator(upstreamAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	rec := NewRecorder(&collectingSink{}, RecorderOptions{})
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec, viaGRPC: viaGRPC})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve()
	defer proxy.Stop(context.Background())
	garbage := func(addr string) error {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		stream, err := conn.NewStream(context.Background(), oneRequest, dataService+keyspace.MethodReadRows, grpc.ForceCodecV2(passThrough{}))
		if err != nil {
			return err
		}
		if err := stream.SendMsg(rawFrame([]byte{0x0a, 0xff, 0x01})); err != nil {
			return err
		}
		var reply frame
		err = stream.RecvMsg(&reply)
		reply.free()
		return err
	}
	want, got := garbage(upstreamAddr), garbage(proxy.Addr())
	if status.Code(want) == codes.OK || status.Convert(got).Proto().String() != status.Convert(want).Proto().String() {
		t.Errorf("a malformed request through the proxy: %v; directly: %v", got, want)
	}
	proxy.Stop(context.Background())
	rec.Close()
	if stats := rec.Stats(); stats.Undecodable != 1 || stats.Calls != 0 {
		t.Errorf("stats = %+v, want the frame counted as undecodable and no call recorded", stats)
	}
}

func TestUpstreamDownAnswersUnavailableAndRecovers(t *testing.T) {
	var logMu sync.Mutex
	var logged []string
	logf := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}
	proxy, upstreamAddr := proxyWithoutUpstream(t, Options{Logf: logf})

	stub := rawStub(t, proxy.Addr())
	table := InstanceName("local", "btviz") + "/tables/" + shopTable
	for range 3 {
		a := readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table})
		if a.code != codes.Unavailable || !strings.Contains(a.message, "the emulator at "+upstreamAddr+" does not answer") {
			t.Fatalf("with the upstream down the client got %v %q, want Unavailable saying the emulator does not answer", a.code, a.message)
		}
	}

	if err := proxy.UpstreamErr(); err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Errorf("UpstreamErr with the upstream down: %v", err)
	}
	srv, err := emulator.Start(upstreamAddr)
	if err != nil {
		t.Skipf("could not take the freed port back for the emulator: %v", err)
	}
	defer srv.Close()
	// The proxy reconnects within about a second (its backoff), during
	// which calls still fail fast, as they would on an emulator starting.
	deadline := time.Now().Add(10 * time.Second)
	for readRowsAnswer(context.Background(), stub, &btpb.ReadRowsRequest{TableName: table}).code == codes.Unavailable {
		if time.Now().After(deadline) {
			t.Fatal("the proxy still answers Unavailable 10 s after the emulator came up")
		}
		time.Sleep(50 * time.Millisecond)
	}
	client, admin := dial(t, proxy.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := seedShop(ctx, client, admin); err != nil {
		t.Fatalf("once the emulator is up, calls through the proxy still fail: %v", err)
	}
	row, err := client.Open(shopTable).ReadRow(ctx, "user#bob#0001")
	if err != nil || row.Key() != "user#bob#0001" {
		t.Fatalf("reading through the proxy after recovery: %v, %v", row, err)
	}
	if err := proxy.UpstreamErr(); err != nil {
		t.Errorf("UpstreamErr once the upstream answers: %v", err)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if len(logged) != 2 || !strings.Contains(logged[0], "does not answer") || !strings.Contains(logged[1], "answers again") {
		t.Errorf("the proxy logged %q; want one line when the upstream went down and one when it came back", logged)
	}
}

func TestListenOnAnAddressInUse(t *testing.T) {
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	upstream, err := DialEmulator("127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	_, err = Listen(hold.Addr().String(), upstream, Options{})
	if !errors.Is(err, ErrAddressInUse) || !strings.Contains(err.Error(), hold.Addr().String()) {
		t.Errorf("Listen on a port in use: %v; want ErrAddressInUse naming the address", err)
	}
}

func TestConcurrentCallsAreAllRecorded(t *testing.T) { onEachPath(t, checkConcurrentCalls) }

func checkConcurrentCalls(t *testing.T, upstreamAddr string, _ *cloudLike, viaGRPC bool) {
	proxyAddr, sink, stop := recordingProxy(t, upstreamAddr, viaGRPC)
	client, _ := dial(t, proxyAddr)
	const workers, reads = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range reads {
				key := fmt.Sprintf("user#alice#%04d", (w*reads+i)%200)
				if _, err := client.Open(shopTable).ReadRow(context.Background(), key); err != nil {
					errs <- err
					return
				}
			}
			m := bigtable.NewMutation()
			m.Set(shopFamily, shopColumn, shopTS, []byte("w"))
			if err := client.Open(shopTable).Apply(context.Background(), fmt.Sprintf("order#w%d", w), m); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	stop()
	byMethod := map[string]int{}
	rows := 0
	for _, op := range sink.all() {
		byMethod[op.Method]++
		rows += len(op.RowsRead) + len(op.RowsWritten)
	}
	want := map[string]int{keyspace.MethodReadRows: workers * reads, keyspace.MethodMutateRow: workers}
	if !reflect.DeepEqual(byMethod, want) || rows != workers*reads+workers {
		t.Errorf("recorded %v with %d rows, want %v with %d", byMethod, rows, want, workers*reads+workers)
	}
}
