package record

import (
	"encoding/binary"
	"errors"

	"golang.org/x/net/http2/hpack"
)

// HTTP/2 (RFC 9113) frame types and flags the relay reads.
const (
	frameData         = 0x0
	frameHeaders      = 0x1
	frameRSTStream    = 0x3
	framePushPromise  = 0x5
	frameContinuation = 0x9

	flagEndStream  = 0x1
	flagEndHeaders = 0x4
	flagPadded     = 0x8
	flagPriority   = 0x20

	frameHeaderLen = 9
)

// clientPreface opens every HTTP/2 connection from the client.
const clientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// maxBufferedPayload bounds the payload of a non-DATA frame the parser
// holds (header blocks are far smaller); a larger one stops parsing.
const maxBufferedPayload = 1 << 20

// maxHeaderStringBytes bounds a header name or value the parser decodes
// (gRPC metadata is a few KB at most; Cloud Bigtable refuses more); a
// longer one stops parsing the connection, which is still forwarded.
const maxHeaderStringBytes = 64 << 10

// errNotHTTP2 stops the parsing of a connection whose bytes do not read
// as HTTP/2: they are still forwarded, only not recorded.
var errNotHTTP2 = errors.New("not an HTTP/2 connection")

// frameEvents receives what a [frameParser] reads.
type frameEvents interface {
	// field is one header field of the block of stream being decoded.
	field(stream uint32, f hpack.HeaderField)
	// headers ends a header block (HEADERS and its CONTINUATIONs);
	// endStream says it also ended the sender's side of the stream.
	headers(stream uint32, endStream bool)
	// data is a piece of a DATA frame's payload, without padding.
	data(stream uint32, p []byte)
	// endStream is a DATA frame that ended the sender's side.
	endStream(stream uint32)
	// reset is a RST_STREAM with its error code.
	reset(stream uint32, code uint32)
}

// frameParser reads one direction of an HTTP/2 connection as the bytes
// go by, without holding them up: frame headers, header blocks decoded
// with the connection's HPACK state (which it must follow from the first
// byte, as the receiver does), and DATA payloads handed on in pieces as
// they arrive. It never buffers a DATA frame.
type frameParser struct {
	events      frameEvents
	prefaceLeft int // bytes of the client preface still expected
	decoder     *hpack.Decoder
	broken      error

	header    [frameHeaderLen]byte
	headerLen int
	inFrame   bool
	typ       uint8
	flags     uint8
	stream    uint32
	left      int    // payload bytes of the current frame still to come
	padKnown  bool   // a DATA frame's pad length has been read (or it has none)
	padLen    int    // a DATA frame's padding, at its end
	payload   []byte // a non-DATA frame's payload so far

	blockStream    uint32 // the header block in progress
	blockEndStream bool
}

// newFrameParser returns a parser for the client's side of a connection
// (fromClient: it starts with the preface) or the server's.
func newFrameParser(events frameEvents, fromClient bool) *frameParser {
	p := &frameParser{events: events}
	if fromClient {
		p.prefaceLeft = len(clientPreface)
	}
	// The receiver announces its table size in SETTINGS and the sender
	// signals every change in the header blocks; a passive reader just
	// accepts whatever size the blocks say.
	p.decoder = hpack.NewDecoder(4096, func(f hpack.HeaderField) { p.events.field(p.blockStream, f) })
	p.decoder.SetAllowedMaxDynamicTableSize(1 << 24)
	// A header value of megabytes is forwarded, not decoded: the parser
	// stops at it, so that no header costs the proxy more than this.
	p.decoder.SetMaxStringLength(maxHeaderStringBytes)
	return p
}

// feed reads the next bytes of the connection. After an error it reads
// nothing more: the connection is still forwarded, but not understood.
func (p *frameParser) feed(b []byte) error {
	if p.broken != nil {
		return p.broken
	}
	if err := p.parse(b); err != nil {
		p.broken = err
	}
	return p.broken
}

func (p *frameParser) parse(b []byte) error {
	if p.prefaceLeft > 0 {
		n := min(p.prefaceLeft, len(b))
		at := len(clientPreface) - p.prefaceLeft
		if string(b[:n]) != clientPreface[at:at+n] {
			return errNotHTTP2
		}
		p.prefaceLeft -= n
		b = b[n:]
	}
	for len(b) > 0 {
		if !p.inFrame {
			n := copy(p.header[p.headerLen:], b)
			p.headerLen += n
			b = b[n:]
			if p.headerLen < frameHeaderLen {
				return nil
			}
			p.headerLen = 0
			p.startFrame()
			if p.left == 0 {
				if err := p.endFrame(); err != nil {
					return err
				}
			}
			continue
		}
		n := min(p.left, len(b))
		chunk := b[:n]
		b = b[n:]
		p.left -= n
		if p.typ == frameData {
			if !p.padKnown {
				p.padLen, p.padKnown = int(chunk[0]), true
				chunk = chunk[1:]
			}
			// Of what is left of the frame, the last padLen bytes are
			// padding.
			data := min(len(chunk), max(0, len(chunk)+p.left-p.padLen))
			if data > 0 {
				p.events.data(p.stream, chunk[:data])
			}
		} else if p.buffered() {
			if len(p.payload)+len(chunk) > maxBufferedPayload {
				return errNotHTTP2
			}
			p.payload = append(p.payload, chunk...)
		}
		if p.left == 0 {
			if err := p.endFrame(); err != nil {
				return err
			}
		}
	}
	return nil
}

// startFrame reads a complete frame header.
func (p *frameParser) startFrame() {
	h := p.header
	p.left = int(h[0])<<16 | int(h[1])<<8 | int(h[2])
	p.typ, p.flags = h[3], h[4]
	p.stream = binary.BigEndian.Uint32(h[5:9]) & 0x7fffffff
	p.inFrame = true
	p.payload = p.payload[:0]
	p.padKnown, p.padLen = p.flags&flagPadded == 0, 0
}

// buffered reports whether the current frame's payload is kept whole.
func (p *frameParser) buffered() bool {
	switch p.typ {
	case frameHeaders, frameContinuation, frameRSTStream, framePushPromise:
		return true
	}
	return false
}

// endFrame acts on a frame whose payload has all been read.
func (p *frameParser) endFrame() error {
	p.inFrame = false
	switch p.typ {
	case frameData:
		if p.flags&flagEndStream != 0 {
			p.events.endStream(p.stream)
		}
	case frameHeaders:
		fragment, err := unpad(p.payload, p.flags)
		if err != nil {
			return err
		}
		if p.flags&flagPriority != 0 {
			if len(fragment) < 5 {
				return errNotHTTP2
			}
			fragment = fragment[5:]
		}
		p.blockStream, p.blockEndStream = p.stream, p.flags&flagEndStream != 0
		return p.headerFragment(fragment)
	case framePushPromise:
		// gRPC never pushes, but a promise's header block changes the
		// HPACK state all the same: decode it, for no stream.
		fragment, err := unpad(p.payload, p.flags)
		if err != nil || len(fragment) < 4 {
			return errNotHTTP2
		}
		p.blockStream, p.blockEndStream = 0, false
		return p.headerFragment(fragment[4:])
	case frameContinuation:
		return p.headerFragment(p.payload)
	case frameRSTStream:
		if len(p.payload) != 4 {
			return errNotHTTP2
		}
		p.events.reset(p.stream, binary.BigEndian.Uint32(p.payload))
	}
	return nil
}

// unpad strips the padding of a HEADERS or PUSH_PROMISE payload.
func unpad(payload []byte, flags uint8) ([]byte, error) {
	if flags&flagPadded == 0 {
		return payload, nil
	}
	if len(payload) < 1 || int(payload[0]) > len(payload)-1 {
		return nil, errNotHTTP2
	}
	return payload[1 : len(payload)-int(payload[0])], nil
}

// headerFragment decodes a piece of a header block, and ends the block
// on END_HEADERS.
func (p *frameParser) headerFragment(fragment []byte) error {
	if _, err := p.decoder.Write(fragment); err != nil {
		return err
	}
	if p.flags&flagEndHeaders == 0 {
		return nil
	}
	if err := p.decoder.Close(); err != nil {
		return err
	}
	p.events.headers(p.blockStream, p.blockEndStream)
	return nil
}
