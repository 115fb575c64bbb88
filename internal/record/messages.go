package record

import "encoding/binary"

// grpcPrefixLen is the length of the prefix of every gRPC message on
// the wire: a compressed flag and the message's length.
const grpcPrefixLen = 5

// keepBodyBytes is the largest message buffer a stream keeps for its next
// message; a larger one is let go once its message is decoded.
const keepBodyBytes = 1 << 20

// MaxDecodedMessageBytes is the largest message the proxy decodes whole.
// A larger one (a 100 MB cell written or read) is forwarded as every
// message is, but only its first [messageHeadBytes] are kept: enough for
// the table and the row key of a mutation, which come first; the message
// is counted ([Stats.TooLarge]). A call so costs the proxy at most this
// much memory per direction, whatever its messages' sizes.
const MaxDecodedMessageBytes = 4 << 20

// messageHeadBytes is how much of a message over [MaxDecodedMessageBytes]
// is kept.
const messageHeadBytes = 64 << 10

// message is one gRPC message of a stream: its bytes, or, for one over
// [MaxDecodedMessageBytes] (oversized), its first [messageHeadBytes]; and
// its length. A compressed message's bytes are not protobuf.
type message struct {
	bytes      []byte
	size       int
	compressed bool
	oversized  bool
}

// messageAssembler cuts one direction of a stream's DATA into gRPC
// messages. A message that arrives whole in one piece is returned in
// place; one split over DATA frames is copied together first, up to
// [MaxDecodedMessageBytes] (of a larger one, only its head is kept).
type messageAssembler struct {
	prefix    [grpcPrefixLen]byte
	prefixLen int
	need      int // body bytes of the current message still to come
	size      int // the current message's length
	body      []byte
}

// next returns the next complete message in *data, advancing it, or ok
// false when *data is used up first (the message continues in the next
// piece).
func (m *messageAssembler) next(data *[]byte) (msg message, ok bool) {
	b := *data
	defer func() { *data = b }()
	for len(b) > 0 {
		if m.prefixLen < grpcPrefixLen {
			if m.prefixLen == 0 && len(b) >= grpcPrefixLen {
				n := int(binary.BigEndian.Uint32(b[1:grpcPrefixLen]))
				if len(b)-grpcPrefixLen >= n && n <= MaxDecodedMessageBytes {
					msg = message{bytes: b[grpcPrefixLen : grpcPrefixLen+n], size: n, compressed: b[0] != 0}
					b = b[grpcPrefixLen+n:]
					return msg, true
				}
			}
			n := copy(m.prefix[m.prefixLen:], b)
			m.prefixLen += n
			b = b[n:]
			if m.prefixLen < grpcPrefixLen {
				break
			}
			m.need = int(binary.BigEndian.Uint32(m.prefix[1:]))
			m.size = m.need
			if cap(m.body) > keepBodyBytes {
				m.body = nil
			}
			m.body = m.body[:0]
			if m.need == 0 {
				m.prefixLen = 0
				return message{bytes: m.body, compressed: m.prefix[0] != 0}, true
			}
		}
		n := min(m.need, len(b))
		if keep := m.kept() - len(m.body); keep > 0 {
			m.body = append(m.body, b[:min(n, keep)]...)
		}
		m.need -= n
		b = b[n:]
		if m.need == 0 {
			m.prefixLen = 0
			return message{bytes: m.body, size: m.size, compressed: m.prefix[0] != 0, oversized: m.size > MaxDecodedMessageBytes}, true
		}
	}
	return message{}, false
}

// kept is how many bytes of the current message are kept.
func (m *messageAssembler) kept() int {
	if m.size > MaxDecodedMessageBytes {
		return messageHeadBytes
	}
	return m.size
}
