package record

import "encoding/binary"

// grpcPrefixLen is the length of the prefix of every gRPC message on
// the wire: a compressed flag and the message's length.
const grpcPrefixLen = 5

// keepBodyBytes is the largest message buffer a stream keeps for its next
// message; a larger one is let go once its message is decoded.
const keepBodyBytes = 1 << 20

// messageAssembler cuts one direction of a stream's DATA into gRPC
// messages. A message that arrives whole in one piece is returned in
// place; one split over DATA frames is copied together first.
type messageAssembler struct {
	prefix    [grpcPrefixLen]byte
	prefixLen int
	need      int // body bytes of the current message still to come
	body      []byte
}

// next returns the next complete message in *data, advancing it, or ok
// false when *data is used up first (the message continues in the next
// piece). compressed is the message's flag: its bytes are then not
// protobuf.
func (m *messageAssembler) next(data *[]byte) (msg []byte, compressed, ok bool) {
	b := *data
	defer func() { *data = b }()
	for len(b) > 0 {
		if m.prefixLen < grpcPrefixLen {
			if m.prefixLen == 0 && len(b) >= grpcPrefixLen {
				if n := int(binary.BigEndian.Uint32(b[1:grpcPrefixLen])); len(b)-grpcPrefixLen >= n {
					msg, compressed = b[grpcPrefixLen:grpcPrefixLen+n], b[0] != 0
					b = b[grpcPrefixLen+n:]
					return msg, compressed, true
				}
			}
			n := copy(m.prefix[m.prefixLen:], b)
			m.prefixLen += n
			b = b[n:]
			if m.prefixLen < grpcPrefixLen {
				break
			}
			m.need = int(binary.BigEndian.Uint32(m.prefix[1:]))
			if cap(m.body) > keepBodyBytes {
				m.body = nil
			}
			m.body = m.body[:0]
			if m.need == 0 {
				m.prefixLen = 0
				return m.body, m.prefix[0] != 0, true
			}
		}
		n := min(m.need, len(b))
		m.body = append(m.body, b[:n]...)
		m.need -= n
		b = b[n:]
		if m.need == 0 {
			m.prefixLen = 0
			return m.body, m.prefix[0] != 0, true
		}
	}
	return nil, false, false
}
