// Package record is btviz's traffic recorder: a transparent gRPC proxy
// that any Bigtable client points BIGTABLE_EMULATOR_HOST at, which
// forwards every call to an upstream (an emulator, or a Cloud Bigtable
// instance over TLS with Application Default Credentials) and records
// what the data-API calls carried as [keyspace.Op]s.
//
// Forwarding is byte for byte, for every method of every service (data
// API, admin API, anything), streaming both ways, with the client's
// metadata; headers, trailers, status codes, messages and error details
// come back exactly as the upstream sent them. To an emulator, the
// [Proxy] relays each client connection to a connection of its own and
// reads the HTTP/2 frames as they pass ([relay]): the bytes the upstream
// gets are the bytes the client sent. To Cloud Bigtable, whose calls
// need TLS and the proxy's credentials, a gRPC server with no service
// but an unknown-service handler and a pass-through codec forwards each
// call on a credentialed connection; it also serves the clients that
// connect while an emulator is down. The proxy never answers in the
// upstream's place, except with Unavailable when the upstream does not
// answer at all. A client connection that arrived while an emulator did
// not answer is served on the gRPC path, which is not byte for byte
// (trailers may come in another order, an HTTP status becomes a gRPC
// one); once the emulator answers again, that server says GOAWAY and
// finishes the calls in flight on it (a long stream stays on the gRPC
// path until it ends), and the client's next calls open a connection
// that the relay takes. Out of file descriptors, the proxy waits and
// takes connections again (logged once a minute), as net/http's server
// does, rather than stopping.
//
// Recording reads a copy of the frames of the data API's calls (ReadRows,
// SampleRowKeys, MutateRow, MutateRows, CheckAndMutateRow,
// ReadModifyWriteRow, and the change-stream calls by name only) with a
// protobuf wire-format decoder that allocates only the keys it keeps: the
// table, the rows named, the ranges asked for as [Start, End), the row
// limit, each row returned (ReadRows' chunks reassembled, reset_row and
// commit_row followed) and each row changed (a MutateRows entry only if
// the server applied it), and the final status code. A frame that does
// not decode is forwarded all the same and counted. A ReadRows call that
// streams many messages gives one Op per message that brought rows, so
// memory never holds more than one message's rows (see [call]). A message
// over [MaxDecodedMessageBytes] (a 100 MB cell) is forwarded as every
// message is, but only its head is kept: a mutation of one row is
// recorded from it (table, row, the message's size as its bytes), a
// read's rows from it on are not counted, and the message is counted as
// too large; a header value over 64 KB stops the reading of its
// connection, which is forwarded unread. So on the relay a call costs the
// proxy a few MB at most, whatever its messages; on the gRPC path gRPC
// holds each message whole, as any gRPC server does, and the recorder
// copies only its head.
//
// The [Recorder] hands Ops to a [Sink] — [FileSink], the recording
// file's traffic builder — on a goroutine of its own behind a bounded
// queue, flushes the sink every few seconds and once more, as final, when
// it closes.
//
// What a recording cannot see: rows a filter dropped on the server count
// only as the rows returned (a CheckAndMutateRow predicate, a read whose
// filter matched nothing); clients that talk to the upstream directly,
// not through the proxy; calls of the session API (OpenTable), which
// clients use only against Cloud Bigtable outside emulator mode.
package record
