//go:build slow

package record

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2/hpack"

	"github.com/btviz/btviz/internal/testkit/cbtemulator"
)

// captureCorpusEnv, set to 1, makes TestCaptureFuzzCorpus write the fuzz
// targets' seed corpus.
const captureCorpusEnv = "BTVIZ_CAPTURE_FUZZ_CORPUS"

// TestCaptureFuzzCorpus writes the seed corpus of the network fuzz
// targets (fuzz_test.go) from real traffic: the workload of
// TestRecordingEqualsWhatWasSent — point reads, scans with limits,
// mutations of every kind, batches, a counter, failing calls — made by
// the official Go client through the proxy against the official
// emulator, every byte of each connection taken as it crossed the relay.
// It runs only with BTVIZ_CAPTURE_FUZZ_CORPUS=1:
//
//	BTVIZ_CAPTURE_FUZZ_CORPUS=1 go test -tags slow ./record -run TestCaptureFuzzCorpus
func TestCaptureFuzzCorpus(t *testing.T) {
	if os.Getenv(captureCorpusEnv) != "1" {
		t.Skip("writes the fuzz corpus; set " + captureCorpusEnv + "=1")
	}
	upstreamAddr := runEmulator(t, cbtemulator.Binary(t))
	upstream, err := DialEmulator(upstreamAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Close()
	var mu sync.Mutex
	streams := map[string][]byte{} // "conn/side" → every byte, in order
	tap := func(conn uint64, fromClient bool, b []byte) {
		mu.Lock()
		defer mu.Unlock()
		key := fmt.Sprintf("%03d/%v", conn, fromClient)
		streams[key] = append(streams[key], b...)
	}
	sink := &collectingSink{}
	rec := NewRecorder(sink, RecorderOptions{})
	proxy, err := Listen("127.0.0.1:0", upstream, Options{Recorder: rec, tap: tap})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve()
	runWorkload(t, context.Background(), proxy.Addr(), shopWorkload())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	proxy.Stop(ctx)
	rec.Close()

	corpus := &corpusWriter{t: t, dir: filepath.Join("testdata", "fuzz")}
	keys := make([]string, 0, len(streams))
	for key := range streams {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	var calls []*capturedCall
	for _, key := range keys {
		fromClient := strings.HasSuffix(key, "/true")
		wire := streams[key]
		corpus.add("FuzzFrameParser", 12, wire[:min(len(wire), 32<<10)], fromClient, byte(13))
		for _, c := range captureCalls(t, wire, fromClient) {
			c.conn = strings.SplitN(key, "/", 2)[0]
			calls = append(calls, c)
		}
	}
	joined := map[string]*capturedCall{} // by connection and stream: a call's requests and responses meet
	for _, c := range calls {
		key := fmt.Sprint(c.conn, c.stream)
		if have := joined[key]; have != nil {
			have.requests = append(have.requests, c.requests...)
			have.responses = append(have.responses, c.responses...)
			if have.path == "" {
				have.path = c.path
			}
			continue
		}
		joined[key] = c
	}
	perMethod := map[string]int{}
	ids := make([]string, 0, len(joined))
	for id := range joined {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := joined[id]
		method := dataMethod(c.path)
		if _, ok := methodSpecs[method]; !ok || len(c.requests) == 0 {
			continue
		}
		if perMethod[method] < 4 {
			perMethod[method]++
			corpus.add("FuzzDecodeCall", 40, method, c.requests[0], grpcMessages(c.responses...), byte(0))
			corpus.add("FuzzMessageAssembler", 12, grpcMessages(c.responses...), byte(3))
			corpus.add("FuzzFields", 16, c.requests[0])
		}
		if method == "ReadRows" && len(c.responses) > 0 {
			corpus.add("FuzzReadRowsChunks", 12, grpcMessages(c.responses...))
		}
	}
	t.Logf("wrote %s", corpus.summary())
}

// capturedCall is one stream of a captured connection, one direction of
// it: its method and its messages.
type capturedCall struct {
	conn      string
	stream    uint32
	path      string
	requests  [][]byte
	responses [][]byte
}

// captureCalls reads one direction of a captured connection into its
// streams' messages.
func captureCalls(t *testing.T, wire []byte, fromClient bool) []*capturedCall {
	t.Helper()
	c := &callCapture{fromClient: fromClient, calls: map[uint32]*capturedCall{}, messages: map[uint32]*messageAssembler{}}
	p := newFrameParser(c, fromClient)
	if err := p.feed(wire); err != nil {
		t.Fatalf("the captured traffic does not parse: %v", err)
	}
	var out []*capturedCall
	for _, call := range c.calls {
		out = append(out, call)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].stream < out[j].stream })
	return out
}

// callCapture collects the messages of each stream of one direction.
type callCapture struct {
	fromClient bool
	path       string
	calls      map[uint32]*capturedCall
	messages   map[uint32]*messageAssembler
}

func (c *callCapture) call(stream uint32) *capturedCall {
	if c.calls[stream] == nil {
		c.calls[stream] = &capturedCall{stream: stream}
		c.messages[stream] = &messageAssembler{}
	}
	return c.calls[stream]
}

func (c *callCapture) field(stream uint32, f hpack.HeaderField) {
	if f.Name == ":path" {
		c.call(stream).path = f.Value
	}
}
func (c *callCapture) headers(uint32, bool) {}
func (c *callCapture) data(stream uint32, p []byte) {
	call := c.call(stream)
	for {
		msg, ok := c.messages[stream].next(&p)
		if !ok {
			return
		}
		body := append([]byte(nil), msg.bytes...)
		if c.fromClient {
			call.requests = append(call.requests, body)
		} else {
			call.responses = append(call.responses, body)
		}
	}
}
func (c *callCapture) endStream(uint32)     {}
func (c *callCapture) reset(uint32, uint32) {}

// corpusWriter writes fuzz corpus files, each once, at most a given
// number per target.
type corpusWriter struct {
	t       *testing.T
	dir     string
	written map[string]int
}

// add writes one entry of target's corpus (at most most of them) in the
// format of go test's fuzzing.
func (w *corpusWriter) add(target string, most int, values ...any) {
	if w.written == nil {
		w.written = map[string]int{}
	}
	if w.written[target] >= most {
		return
	}
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case bool:
			fmt.Fprintf(&b, "bool(%v)\n", v)
		case byte:
			fmt.Fprintf(&b, "byte(%q)\n", v)
		default:
			w.t.Fatalf("no corpus encoding for %T", v)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	dir := filepath.Join(w.dir, target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	path := filepath.Join(dir, "captured-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.written[target]++
}

func (w *corpusWriter) summary() string {
	var parts []string
	for target, n := range w.written {
		parts = append(parts, fmt.Sprintf("%s: %d", target, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
