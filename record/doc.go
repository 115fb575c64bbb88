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
// answer at all.
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
// memory never holds more than one message's rows (see [call]).
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
