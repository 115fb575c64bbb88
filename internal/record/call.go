package record

import (
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/btviz/btviz/internal/keyspace"
)

// Field numbers of the read requests.
const (
	readRowsRows  = 2 // ReadRowsRequest.rows, a RowSet
	readRowsLimit = 4 // ReadRowsRequest.rows_limit
)

// callState is where a [call] is in its life.
type callState uint8

const (
	awaitingRequest callState = iota // no request decoded yet
	recording                        // the request named a table the recording covers
	ignored                          // not recorded: no table, another instance, or undecodable
	finished                         // the Op went to the recorder
)

// call turns the frames of one data-API call into [keyspace.Op]s. The
// proxy hands it a copy of every frame after (responses) or just before
// (the request) forwarding it, from two goroutines; the mutex orders
// them. The request is decoded before it is forwarded, so that the
// upstream's answer can never overtake it.
//
// A ReadRows call's rows are recorded one response message at a time: a
// message's rows are held until the next message brings rows (then they
// go out as a Part) or the call ends (then they ride on the call's own
// Op, which goes out last, with the call's status code). A point read,
// answered in one message, is exactly one Op.
type call struct {
	rec   *Recorder
	spec  methodSpec
	op    *keyspace.Op
	mu    sync.Mutex
	state callState

	// ReadRows
	rows      rowAssembler
	brokenRow bool // a response did not decode: no more rows are counted
	held      []keyspace.RowIO
	heldAt    time.Time
	callRows  int64 // rows the call returned so far

	// MutateRow, ReadModifyWriteRow: the bytes of the mutations or rules
	// sent. CheckAndMutateRow: of each branch, and which one ran.
	written, writtenFalse int64
	answered, matched     bool
	returned              []keyspace.RowIO // ReadModifyWriteRow's new row

	// MutateRows: whether each entry was applied (the Op's RowsWritten
	// holds every entry until the call ends).
	entryOK []bool
}

// newCall starts the recording of a call to spec's method at start.
func newCall(rec *Recorder, spec methodSpec, start time.Time) *call {
	return &call{rec: rec, spec: spec, op: &keyspace.Op{Time: start, Method: spec.name}}
}

// request decodes the call's request (a nil call records nothing, as
// do its other methods). Only the first is decoded: every
// method the recorder knows takes one.
func (c *call) request(msg []byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != awaitingRequest {
		return
	}
	resource, err := c.decodeRequest(msg)
	switch {
	case err != nil:
		c.rec.undecodable.Add(1)
		c.state = ignored
	case !inInstance(resource, c.rec.instance):
		c.rec.unrecorded.Add(1)
		c.state = ignored
	default:
		if c.op.Table = tableID(resource); c.op.Table == "" {
			c.rec.unrecorded.Add(1)
			c.state = ignored
			return
		}
		c.state = recording
	}
}

// requestHead records the call of a request over
// [MaxDecodedMessageBytes] from its head, the first [messageHeadBytes]
// of its size bytes: a mutation of one row (MutateRow, CheckAndMutateRow,
// ReadModifyWriteRow) names its table and row first, and its mutations'
// bytes are taken as the rest of the message. Any other call so large is
// not recorded. The message is counted ([Stats.TooLarge]).
func (c *call) requestHead(head []byte, size int) {
	if c == nil {
		return
	}
	c.rec.tooLarge.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != awaitingRequest {
		return
	}
	c.state = ignored
	switch c.op.Method {
	case keyspace.MethodMutateRow, keyspace.MethodCheckAndMutateRow, keyspace.MethodReadModifyWriteRow:
	default:
		return
	}
	var resource, key []byte
	named := 0 // bytes of the fields before the mutations
	for it := fieldsOf(head); it.next(); named = it.at {
		switch {
		case c.spec.isResource(it.num):
			resource = it.bytes()
		case it.num == c.spec.rowKey:
			key = it.bytes()
		}
	}
	if key == nil || !inInstance(resource, c.rec.instance) || tableID(resource) == "" {
		c.rec.unrecorded.Add(1)
		return
	}
	c.op.Table, c.op.Keys = tableID(resource), []keyspace.Key{keyspace.Key(key)}
	c.written = int64(size - named)
	c.writtenFalse = c.written // which branch holds them is not known
	c.state = recording
}

// responseSkipped notes a response over [MaxDecodedMessageBytes], which
// is not decoded: a read's rows from then on are not counted (a row may
// span messages, so the next ones cannot be placed either).
func (c *call) responseSkipped() {
	if c == nil {
		return
	}
	c.rec.tooLarge.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.brokenRow = true
}

// decodeRequest fills the Op from the request and returns the resource
// name it is about.
func (c *call) decodeRequest(msg []byte) (resource []byte, err error) {
	op := c.op
	var entries []entrySpan // MutateRows' entries
	if op.Method == keyspace.MethodMutateRows {
		entries = make([]entrySpan, 0, countFields(msg, mutateRowsEntries))
	}
	it := fieldsOf(msg)
	for it.next() {
		if c.spec.isResource(it.num) {
			if name := it.bytes(); len(name) > 0 {
				resource = name
			}
			continue
		}
		switch op.Method {
		case keyspace.MethodReadRows:
			switch it.num {
			case readRowsRows:
				err = decodeRowSet(it.bytes(), op)
			case readRowsLimit:
				op.RowLimit = int64(it.uint())
			}
		case keyspace.MethodMutateRow, keyspace.MethodReadModifyWriteRow, keyspace.MethodCheckAndMutateRow:
			switch it.num {
			case c.spec.rowKey:
				op.Keys = append(op.Keys[:0], keyspace.Key(it.bytes()))
			case c.spec.written:
				c.written += int64(len(it.bytes()))
			case c.spec.writtenIfFalse:
				c.writtenFalse += int64(len(it.bytes()))
			}
		case keyspace.MethodMutateRows:
			if it.num == mutateRowsEntries {
				var e entrySpan
				e, err = decodeEntry(&it)
				entries = append(entries, e)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if it.err != nil {
		return nil, it.err
	}
	if op.Method == keyspace.MethodReadRows && len(op.Keys) == 0 && len(op.Ranges) == 0 {
		op.Ranges = []keyspace.KeyRange{{}} // no rows named: the whole table
	}
	if op.Method == keyspace.MethodMutateRows {
		op.Keys, op.RowsWritten = entryRows(msg, entries)
		c.entryOK = make([]bool, len(entries))
	}
	return resource, nil
}

// response decodes one response message; at is when it arrived.
func (c *call) response(msg []byte, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != recording {
		return
	}
	var err error
	switch c.op.Method {
	case keyspace.MethodReadRows:
		err = c.readRowsResponse(msg, at)
	case keyspace.MethodMutateRows:
		err = c.mutateRowsResponse(msg)
	case keyspace.MethodCheckAndMutateRow:
		c.answered = true
		it := fieldsOf(msg)
		for it.next() {
			if it.num == checkMatched {
				c.matched = it.uint() != 0
			}
		}
		err = it.err
	case keyspace.MethodReadModifyWriteRow:
		it := fieldsOf(msg)
		for it.next() {
			if it.num == rmwRow {
				var row keyspace.RowIO
				var key string
				key, row.Bytes, err = rowBytes(it.bytes())
				row.Key = keyspace.Key(key)
				c.returned = append(c.returned[:0], row)
			}
		}
		if err == nil {
			err = it.err
		}
	}
	if err != nil {
		c.rec.undecodable.Add(1)
	}
}

// readRowsResponse adds the rows one ReadRows response committed.
func (c *call) readRowsResponse(msg []byte, at time.Time) error {
	if c.brokenRow {
		return nil
	}
	rows, err := c.rows.response(msg, nil)
	if err != nil {
		c.brokenRow = true // the chunks that follow cannot be placed
	}
	if len(rows) == 0 {
		return err
	}
	c.callRows += int64(len(rows))
	if len(c.held) > 0 {
		c.rec.add(&keyspace.Op{Time: c.heldAt, Table: c.op.Table, Method: c.op.Method, Part: true, RowsRead: c.held})
	}
	c.held, c.heldAt = rows, at
	return err
}

// mutateRowsResponse marks the entries the server applied.
func (c *call) mutateRowsResponse(msg []byte) error {
	it := fieldsOf(msg)
	for it.next() {
		if it.num != mutateRowsRespEntries {
			continue
		}
		index, ok, err := decodeEntryStatus(it.bytes())
		if err != nil {
			return err
		}
		if index >= 0 && index < int64(len(c.entryOK)) {
			c.entryOK[index] = ok
		}
	}
	return it.err
}

// finish ends the call with its gRPC status code and hands its Op to the
// recorder.
func (c *call) finish(code uint32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != recording {
		c.state = finished
		return
	}
	c.state = finished
	op := c.op
	op.Code = code
	// Request to trailers, as the proxy saw them: what the client waited,
	// less its own network hop to the proxy.
	op.Latency = max(c.rec.now().Sub(op.Time), 1)
	switch op.Method {
	case keyspace.MethodReadRows:
		op.RowsRead, op.CallRows = c.held, c.callRows
	case keyspace.MethodMutateRow:
		if code == 0 && len(op.Keys) == 1 {
			op.RowsWritten = []keyspace.RowIO{{Key: op.Keys[0], Bytes: c.written}}
		}
	case keyspace.MethodCheckAndMutateRow:
		written := c.written
		if !c.matched {
			written = c.writtenFalse
		}
		if code == 0 && c.answered && written > 0 && len(op.Keys) == 1 {
			op.RowsWritten = []keyspace.RowIO{{Key: op.Keys[0], Bytes: written}}
		}
	case keyspace.MethodReadModifyWriteRow:
		if code == 0 && len(op.Keys) == 1 {
			op.RowsWritten = []keyspace.RowIO{{Key: op.Keys[0], Bytes: c.written}}
			op.RowsRead = c.returned
		}
	case keyspace.MethodMutateRows:
		applied := op.RowsWritten[:0]
		for i, ok := range c.entryOK {
			if ok {
				applied = append(applied, op.RowsWritten[i])
			}
		}
		op.RowsWritten = applied
	}
	c.rec.add(op)
}

// entryRows copies the row keys of a MutateRows call's entries out of its
// request into one allocation, however many there are (a call names up
// to 100,000 rows), and returns them with a row written per entry.
func entryRows(msg []byte, entries []entrySpan) ([]keyspace.Key, []keyspace.RowIO) {
	total := 0
	for _, e := range entries {
		total += int(e.keyEnd - e.keyStart)
	}
	var b strings.Builder
	b.Grow(total)
	for _, e := range entries {
		b.Write(msg[e.keyStart:e.keyEnd])
	}
	all := b.String()
	keys, rows := make([]keyspace.Key, len(entries)), make([]keyspace.RowIO, len(entries))
	at := 0
	for i, e := range entries {
		n := int(e.keyEnd - e.keyStart)
		keys[i] = keyspace.Key(all[at : at+n])
		rows[i] = keyspace.RowIO{Key: keys[i], Bytes: e.mutationBytes}
		at += n
	}
	return keys, rows
}

// isResource reports whether field num of the method's request holds the
// resource name it is about.
func (s methodSpec) isResource(num protowire.Number) bool {
	for _, n := range s.tableFields {
		if n == num {
			return true
		}
	}
	return false
}
