package record

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// eventLog writes down what a frameParser reports, one line each.
type eventLog struct{ lines []string }

func (e *eventLog) field(stream uint32, f hpack.HeaderField) {
	e.lines = append(e.lines, fmt.Sprintf("field %d %s=%q", stream, f.Name, f.Value))
}
func (e *eventLog) headers(stream uint32, endStream bool) {
	e.lines = append(e.lines, fmt.Sprintf("headers %d end=%v", stream, endStream))
}
func (e *eventLog) data(stream uint32, p []byte) {
	// Pieces of one frame are joined, so that any cut reads the same.
	line := fmt.Sprintf("data %d ", stream)
	if n := len(e.lines); n > 0 && strings.HasPrefix(e.lines[n-1], line) {
		e.lines[n-1] += string(p)
		return
	}
	e.lines = append(e.lines, line+string(p))
}
func (e *eventLog) endStream(stream uint32) {
	e.lines = append(e.lines, fmt.Sprintf("end %d", stream))
}
func (e *eventLog) reset(stream uint32, code uint32) {
	e.lines = append(e.lines, fmt.Sprintf("reset %d %d", stream, code))
}

// clientBytes writes a client's side of a connection with every frame
// shape the parser must follow: padded and prioritised HEADERS split over
// CONTINUATIONs, padded DATA, frames of other streams between, a
// RST_STREAM, connection-level frames, and header fields that only the
// dynamic table names the second time.
func clientBytes(t testing.TB) []byte {
	t.Helper()
	var out, block bytes.Buffer
	out.WriteString(clientPreface)
	fr := http2.NewFramer(&out, nil)
	enc := hpack.NewEncoder(&block)
	encode := func(fields ...string) []byte {
		block.Reset()
		for i := 0; i < len(fields); i += 2 {
			if err := enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]}); err != nil {
				t.Fatal(err)
			}
		}
		return bytes.Clone(block.Bytes())
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: 8192}))
	first := encode(":method", "POST", ":path", "/google.bigtable.v2.Bigtable/ReadRows", "x-goog-request-params", strings.Repeat("p", 300))
	must(fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: first[:10], PadLength: 7,
		Priority: http2.PriorityParam{StreamDep: 0, Weight: 15}}))
	must(fr.WriteContinuation(1, false, first[10:20]))
	must(fr.WritePing(false, [8]byte{1}))
	must(fr.WriteContinuation(1, true, first[20:]))
	must(fr.WriteDataPadded(1, false, []byte("hello, "), []byte{0, 0, 0}))
	second := encode(":method", "POST", ":path", "/google.bigtable.v2.Bigtable/MutateRow", "x-goog-request-params", strings.Repeat("p", 300))
	must(fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: second, EndHeaders: true}))
	must(fr.WriteData(3, true, []byte("stream three")))
	must(fr.WriteData(1, true, []byte("world")))
	must(fr.WriteWindowUpdate(0, 1000))
	must(fr.WriteRSTStream(5, http2.ErrCodeCancel))
	must(fr.WriteData(7, true, nil))
	return out.Bytes()
}

var wantClientEvents = []string{
	`field 1 :method="POST"`,
	`field 1 :path="/google.bigtable.v2.Bigtable/ReadRows"`,
	`field 1 x-goog-request-params="` + strings.Repeat("p", 300) + `"`,
	`headers 1 end=false`,
	`data 1 hello, `,
	`field 3 :method="POST"`,
	`field 3 :path="/google.bigtable.v2.Bigtable/MutateRow"`,
	`field 3 x-goog-request-params="` + strings.Repeat("p", 300) + `"`,
	`headers 3 end=false`,
	`data 3 stream three`,
	`end 3`,
	`data 1 world`,
	`end 1`,
	`reset 5 8`,
	`end 7`,
}

func TestFrameParserReadsAnyCutTheSame(t *testing.T) {
	wire := clientBytes(t)
	for _, size := range []int{len(wire), 1, 2, 5, 9, 10, 64} {
		log := &eventLog{}
		p := newFrameParser(log, true)
		for rest := wire; len(rest) > 0; {
			n := min(size, len(rest))
			if err := p.feed(rest[:n]); err != nil {
				t.Fatalf("pieces of %d bytes: %v", size, err)
			}
			rest = rest[n:]
		}
		if got, want := strings.Join(log.lines, "\n"), strings.Join(wantClientEvents, "\n"); got != want {
			t.Errorf("pieces of %d bytes: events\n%s\nwant\n%s", size, got, want)
		}
	}
}

func TestFrameParserStopsOnWhatIsNotHTTP2(t *testing.T) {
	p := newFrameParser(&eventLog{}, true)
	if err := p.feed([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != errNotHTTP2 {
		t.Errorf("an HTTP/1 request: %v, want errNotHTTP2", err)
	}
	if err := p.feed([]byte(clientPreface)); err != errNotHTTP2 {
		t.Errorf("after an error the parser must stay stopped, got %v", err)
	}
}

func TestMessageAssemblerCutsMessagesAcrossPieces(t *testing.T) {
	var wire []byte
	for _, m := range []string{"first", "", "third message", strings.Repeat("x", 100)} {
		wire = append(wire, 0, 0, 0, 0, byte(len(m)))
		wire = append(wire, m...)
	}
	wire = append(wire, 1, 0, 0, 0, 1, 'z') // a compressed message
	for _, size := range []int{len(wire), 1, 3, 6, 17} {
		var m messageAssembler
		var got []string
		for rest := wire; len(rest) > 0; {
			piece := rest[:min(size, len(rest))]
			rest = rest[len(piece):]
			for {
				msg, ok := m.next(&piece)
				if !ok {
					break
				}
				got = append(got, fmt.Sprintf("%s/%v", msg.bytes, msg.compressed))
			}
		}
		want := []string{"first/false", "/false", "third message/false", strings.Repeat("x", 100) + "/false", "z/true"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("pieces of %d bytes: messages %q, want %q", size, got, want)
		}
	}
}

// TestMessageAssemblerKeepsTheHeadOfALargeMessage: of a message over
// MaxDecodedMessageBytes the assembler keeps the head, however the
// message is cut, and says how long it was; the message after it comes
// whole.
func TestMessageAssemblerKeepsTheHeadOfALargeMessage(t *testing.T) {
	size := MaxDecodedMessageBytes + 1
	var wire []byte
	wire = append(wire, 0, byte(size>>24), byte(size>>16), byte(size>>8), byte(size))
	for i := range size {
		wire = append(wire, byte(i))
	}
	wire = append(wire, 0, 0, 0, 0, 2, 'o', 'k')
	for _, piece := range []int{len(wire), 16 << 10, 7} {
		var m messageAssembler
		var got []message
		for rest := wire; len(rest) > 0; {
			p := rest[:min(piece, len(rest))]
			rest = rest[len(p):]
			for {
				msg, ok := m.next(&p)
				if !ok {
					break
				}
				msg.bytes = bytes.Clone(msg.bytes)
				got = append(got, msg)
			}
			if cap(m.body) > messageHeadBytes+MaxDecodedMessageBytes/8 {
				t.Fatalf("pieces of %d bytes: the assembler holds %d bytes of a message it keeps %d of", piece, cap(m.body), messageHeadBytes)
			}
		}
		if len(got) != 2 || !got[0].oversized || got[0].size != size || !bytes.Equal(got[0].bytes, wire[5:5+messageHeadBytes]) ||
			got[1].oversized || string(got[1].bytes) != "ok" {
			t.Errorf("pieces of %d bytes: %d messages, the first oversized %v of %d bytes", piece, len(got), len(got) > 0 && got[0].oversized, len(got))
		}
	}
}
