// Package cloudlike makes a real Bigtable emulator (bttest, the server the
// official cbtemulator binary runs) answer SampleRowKeys the way Cloud
// Bigtable does, for tests and benchmarks of the sampler on tablets, and
// for the traffic demo (`btviz --emulator --traffic`), whose simulated
// hot tablets are its tablets.
//
// The emulator answers SampleRowKeys with about 1% of its rows, picked at
// random, and the exact count of value bytes before each. Cloud Bigtable
// answers tablet boundaries, hundreds of MB apart. [ServerOptions] are gRPC
// server interceptors that answer tablets instead: a boundary on the row
// nearest each cut point a [Layout] asks for (even tablets, or tablets of
// given relative sizes), each with its true byte offset, found by reading
// the table at the server, so that the same rows always get the same map
// (a test that logs its seed replays its tablets too). Every other call,
// and every row, is the emulator's: the data path is the real server.
// Like Cloud Bigtable's, the tablet map is server state, not drawn afresh
// per call: it is computed once per table and kept until a call changes
// that table's data (a write to one table leaves every other table's map
// as it was).
//
// The interceptor also counts, at the server, the rows each ReadRows call
// sent ([Counter]), so that a test can check what a scan cost the server.
//
// An emulator started with the interceptor is an emulator like any other:
// BIGTABLE_EMULATOR_HOST may point at it (see bench/cmd/benchscan serve
// -tablets).
package cloudlike

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Layout says where the tablet boundaries fall. Tablets cut the table
// into that many tablets of about equal bytes; Sizes, when set, gives the
// tablets' relative sizes instead (for example 1, 1, 10, 1, 1: a tablet
// ten times its neighbours). A boundary lands on the row that starts
// nearest its cut point, so a table of few rows gets fewer tablets than
// asked.
type Layout struct {
	Tablets int
	Sizes   []float64
}

// Uneven returns a layout of n tablets of which n-2 are of equal size,
// one (a third of the way in) is large times their size and one (two
// thirds of the way in) small times it: the uneven tablets a real
// instance has after splits and merges.
func Uneven(n int, large, small float64) Layout {
	sizes := make([]float64, max(n, 3))
	for i := range sizes {
		sizes[i] = 1
	}
	sizes[len(sizes)/3] = large
	sizes[2*len(sizes)/3] = small
	return Layout{Sizes: sizes}
}

// weights returns the layout's relative tablet sizes.
func (l Layout) weights() []float64 {
	if len(l.Sizes) > 0 {
		return l.Sizes
	}
	weights := make([]float64, max(l.Tablets, 1))
	for i := range weights {
		weights[i] = 1
	}
	return weights
}

// Counter counts what ReadRows calls sent, at the server, and the tablet
// maps computed.
type Counter struct {
	rows, calls, maps atomic.Int64
}

// Maps returns how many tablet maps were computed so far: once per table,
// and again after a call changed it.
func (c *Counter) Maps() int64 { return c.maps.Load() }

// Rows returns the rows sent so far.
func (c *Counter) Rows() int64 { return c.rows.Load() }

// Calls returns the ReadRows calls answered so far.
func (c *Counter) Calls() int64 { return c.calls.Load() }

// Reset sets the counts of rows and calls to zero.
func (c *Counter) Reset() {
	c.rows.Store(0)
	c.calls.Store(0)
}

// ServerOptions returns the interceptors, as gRPC server options, that
// make the emulator answer SampleRowKeys with the layout's tablets and
// count ReadRows rows in counter (which may be nil).
func ServerOptions(layout Layout, counter *Counter) []grpc.ServerOption {
	m := &maps{layout: layout, cached: map[string]tabletMap{}, counter: counter}
	stream := grpc.ChainStreamInterceptor(func(srv any, stream grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		switch {
		case strings.HasSuffix(info.FullMethod, "/SampleRowKeys"):
			return m.answer(srv, stream, handler)
		case strings.HasSuffix(info.FullMethod, "/ReadRows") && counter != nil:
			counter.calls.Add(1)
			return handler(srv, countingStream{ServerStream: stream, counter: counter})
		case changesData(info.FullMethod):
			// The table is named in the request, which the handler
			// receives: forget its map then, and again once the call has
			// changed it (a SampleRowKeys in between may have mapped it).
			watch := &forgettingStream{ServerStream: stream, maps: m}
			err := handler(srv, watch)
			for _, table := range watch.tables {
				m.forget(table)
			}
			return err
		}
		return handler(srv, stream)
	})
	unary := grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !changesData(info.FullMethod) {
			return handler(ctx, req)
		}
		table := tableOf(req)
		m.forget(table)
		resp, err := handler(ctx, req)
		m.forget(table)
		return resp, err
	})
	return []grpc.ServerOption{stream, unary}
}

// changesData reports whether a method may change a table's rows, and
// so its tablet map.
func changesData(method string) bool {
	for _, name := range []string{"Mutate", "ReadModifyWrite", "DropRowRange", "DeleteTable", "CreateTable"} {
		if strings.Contains(method, name) {
			return true
		}
	}
	return false
}

// tableOf returns the full name of the table a request changes
// ("projects/p/instances/i/tables/t", as SampleRowKeys names it): its
// table_name (data API), name (DropRowRange, DeleteTable), or parent and
// table_id (CreateTable); "" when it names none, which forgets every
// table's map.
func tableOf(req any) string {
	msg, ok := req.(proto.Message)
	if !ok {
		return ""
	}
	r := msg.ProtoReflect()
	text := func(name protoreflect.Name) string {
		if f := r.Descriptor().Fields().ByName(name); f != nil && f.Kind() == protoreflect.StringKind {
			return r.Get(f).String()
		}
		return ""
	}
	switch {
	case text("table_name") != "":
		return text("table_name")
	case text("table_id") != "":
		return text("parent") + "/tables/" + text("table_id")
	}
	return text("name")
}

// forgettingStream forgets the map of the table each request it receives
// names, and keeps the names.
type forgettingStream struct {
	grpc.ServerStream
	maps   *maps
	tables []string
}

func (s *forgettingStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil {
		table := tableOf(m)
		s.maps.forget(table)
		s.tables = append(s.tables, table)
	}
	return err
}

// countingStream counts the rows a ReadRows answer commits.
type countingStream struct {
	grpc.ServerStream
	counter *Counter
}

func (s countingStream) SendMsg(m any) error {
	if resp, ok := m.(*btpb.ReadRowsResponse); ok {
		for _, chunk := range resp.Chunks {
			if chunk.GetCommitRow() {
				s.counter.rows.Add(1)
			}
		}
	}
	return s.ServerStream.SendMsg(m)
}

// tabletMap is a table's coarsened SampleRowKeys answer.
type tabletMap []*btpb.SampleRowKeysResponse

// maps holds the tablet map of each table until its data changes.
type maps struct {
	layout Layout
	mu     sync.Mutex
	cached map[string]tabletMap
	// counter, when set, counts the maps computed (see [Counter.Maps]).
	counter *Counter
}

// forget drops the map of the table named table ("" for every table).
func (m *maps) forget(table string) {
	m.mu.Lock()
	if table == "" {
		clear(m.cached)
	} else {
		delete(m.cached, table)
	}
	m.mu.Unlock()
}

// answer sends the table's tablet map, computing it the first time (see
// [maps.cut]).
func (m *maps) answer(srv any, stream grpc.ServerStream, handler grpc.StreamHandler) error {
	req := new(btpb.SampleRowKeysRequest)
	if err := stream.RecvMsg(req); err != nil {
		return err
	}
	m.mu.Lock()
	tablets, ok := m.cached[req.TableName]
	m.mu.Unlock()
	if !ok {
		capture := &capturingStream{ServerStream: stream, req: req}
		if err := handler(srv, capture); err != nil {
			return err
		}
		var err error
		if tablets, err = m.cut(srv, stream, req.TableName, capture.samples); err != nil {
			return err
		}
		m.mu.Lock()
		m.cached[req.TableName] = tablets
		m.mu.Unlock()
		if m.counter != nil {
			m.counter.maps.Add(1)
		}
	}
	for _, resp := range tablets {
		if err := stream.SendMsg(resp); err != nil {
			return err
		}
	}
	return nil
}

// cut returns the tablet map of a table whose emulator's answer is
// samples (rows with the bytes before each, in key order, then the
// table's end with its bytes): a boundary on the row that starts nearest
// each cut point the layout's weights put in those bytes, and the end.
// The samples are random, the map is not: each cut point's rows are read
// at the server (srv, the emulator's Bigtable service) between the
// samples around it, about a hundred rows apart, so that the same rows
// always get the same map. A server that cannot be read this way gets the
// samples nearest the cut points.
func (m *maps) cut(srv any, stream grpc.ServerStream, table string, samples []*btpb.SampleRowKeysResponse) (tabletMap, error) {
	bt, ok := srv.(btpb.BigtableServer)
	if !ok || len(samples) == 0 {
		return coarsen(samples, m.layout.weights()), nil
	}
	end := samples[len(samples)-1]
	keys := samples[:len(samples)-1]
	var near []*btpb.SampleRowKeysResponse
	for _, cut := range cutPoints(m.layout.weights(), end.OffsetBytes) {
		// The samples around the cut: the last at or before it (the
		// table's start if none), the first past it (the end if none).
		next, _ := slices.BinarySearchFunc(keys, cut+1, func(s *btpb.SampleRowKeysResponse, off int64) int { return cmp.Compare(s.OffsetBytes, off) })
		from := &btpb.SampleRowKeysResponse{}
		if next > 0 {
			from = keys[next-1]
		}
		to := end
		if next < len(keys) {
			to = keys[next]
		}
		around := &rowsAround{ServerStream: stream, cut: cut, offset: from.OffsetBytes}
		req := &btpb.ReadRowsRequest{TableName: table, Rows: &btpb.RowSet{RowRanges: []*btpb.RowRange{{
			StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: from.RowKey},
			EndKey:   &btpb.RowRange_EndKeyOpen{EndKeyOpen: to.RowKey},
		}}}}
		if err := bt.ReadRows(req, around); err != nil {
			return nil, err
		}
		if around.after == nil && len(to.RowKey) > 0 {
			around.after = to // no row of the range starts past the cut
		}
		for _, row := range []*btpb.SampleRowKeysResponse{around.before, around.after} {
			if row != nil {
				near = append(near, row)
			}
		}
	}
	slices.SortFunc(near, func(a, b *btpb.SampleRowKeysResponse) int { return strings.Compare(string(a.RowKey), string(b.RowKey)) })
	near = slices.CompactFunc(near, func(a, b *btpb.SampleRowKeysResponse) bool { return string(a.RowKey) == string(b.RowKey) })
	return coarsen(append(near, end), m.layout.weights()), nil
}

// cutPoints returns the byte offsets where the weights cut total bytes.
func cutPoints(weights []float64, total int64) []int64 {
	var sum, acc float64
	for _, w := range weights {
		sum += w
	}
	var cuts []int64
	for _, w := range weights[:len(weights)-1] {
		acc += w
		cuts = append(cuts, int64(acc/sum*float64(total)))
	}
	return cuts
}

// rowsAround takes a ReadRows answer of consecutive rows, the first of
// which starts at offset, and keeps the last row that starts at or before
// cut and the first that starts after it, each with the bytes before it
// (the sum of the cells' values of the rows before, as the emulator counts
// a row's size): of the rows around a cut, these are all [coarsen]
// compares.
type rowsAround struct {
	grpc.ServerStream
	cut           int64
	offset        int64
	key           []byte
	size          int64
	before, after *btpb.SampleRowKeysResponse
}

func (r *rowsAround) Send(resp *btpb.ReadRowsResponse) error {
	for _, chunk := range resp.Chunks {
		if len(chunk.RowKey) > 0 {
			r.key = chunk.RowKey
		}
		r.size += int64(len(chunk.Value))
		if chunk.GetResetRow() {
			r.size = 0
		}
		if !chunk.GetCommitRow() {
			continue
		}
		if r.after == nil {
			row := &btpb.SampleRowKeysResponse{RowKey: slices.Clone(r.key), OffsetBytes: r.offset}
			if row.OffsetBytes <= r.cut {
				r.before = row
			} else {
				r.after = row
			}
		}
		r.offset += r.size
		r.size = 0
	}
	return nil
}

// capturingStream hands the handler the request already read and keeps
// what it sends.
type capturingStream struct {
	grpc.ServerStream
	req     *btpb.SampleRowKeysRequest
	used    bool
	samples []*btpb.SampleRowKeysResponse
}

func (s *capturingStream) RecvMsg(m any) error {
	if s.used {
		return s.ServerStream.RecvMsg(m)
	}
	s.used = true
	proto.Merge(m.(proto.Message), s.req)
	return nil
}

func (s *capturingStream) SendMsg(m any) error {
	s.samples = append(s.samples, m.(*btpb.SampleRowKeysResponse))
	return nil
}

// coarsen keeps, of samples (rows with the bytes before them, in key
// order, the last one the empty end-of-table key with the total: the
// rows around each cut point, or the emulator's own samples), the one
// nearest each cut point the weights put in the byte range, and the end
// of the table.
func coarsen(samples []*btpb.SampleRowKeysResponse, weights []float64) tabletMap {
	if len(samples) == 0 {
		return nil
	}
	end := samples[len(samples)-1]
	keys := samples[:len(samples)-1]
	var tablets tabletMap
	next := 0 // the first sample not yet passed
	for _, cut := range cutPoints(weights, end.OffsetBytes) {
		for next < len(keys)-1 && keys[next+1].OffsetBytes <= cut {
			next++
		}
		if next < len(keys)-1 && cut-keys[next].OffsetBytes > keys[next+1].OffsetBytes-cut {
			next++
		}
		if next >= len(keys) {
			break
		}
		if n := len(tablets); n == 0 || string(tablets[n-1].RowKey) < string(keys[next].RowKey) {
			if keys[next].OffsetBytes > 0 {
				tablets = append(tablets, keys[next])
			}
		}
	}
	return append(tablets, end)
}
