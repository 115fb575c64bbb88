// Package hotadmin is a gRPC server for tests that answers the two calls
// of the instance admin API btviz makes for hot tablets, ListClusters and
// ListHotTablets, with tablets a test plants, and forwards every other
// call (the data API, the table admin API) to a real Bigtable emulator
// behind it. The emulator does not implement the instance admin API; with
// this server in front of it, btviz in emulator mode (BIGTABLE_EMULATOR_HOST
// at the server) reads planted hot tablets through the same client code
// it uses against Cloud Bigtable, and scans the emulator's tables. No
// part of it stands in for the Bigtable client.
//
// It can also hold forwarded calls for a while ([Options.Delay]): an
// upstream whose one key range is slow.
//
// Like Cloud Bigtable, it refuses a ListHotTablets window longer than 48
// hours or older than 14 days, answers only samples that start inside the
// window, and pages its answers (a few tablets a page unless the request
// asks otherwise), so that a test sees btviz ask in windows and read
// every page.
package hotadmin

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Tablet is a planted hot-tablet sample of a cluster.
type Tablet struct {
	Cluster string
	*adminpb.HotTablet
}

// Options say what the server answers.
type Options struct {
	// Clusters are the instance's cluster IDs.
	Clusters []string
	// Tablets are the planted samples; a sample's TableName is a full
	// resource name (projects/P/instances/I/tables/T).
	Tablets []Tablet
	// PageSize is how many samples a page holds when the request does not
	// say (default 3).
	PageSize int
	// Err, when set, is every ListHotTablets' answer (a permission
	// refused, an API not enabled).
	Err error
	// Now is the server's clock (default time.Now).
	Now func() time.Time
	// Delay, when set, says how long to hold a forwarded call before it
	// goes to the emulator, from its method ("/google.bigtable.v2.Bigtable/ReadRows")
	// and its first request message: a slow key range, for the latency
	// a recording proxy in front of this server sees.
	Delay func(method string, request []byte) time.Duration
}

// Request is one ListHotTablets call as the server saw it.
type Request struct {
	Cluster    string
	Start, End time.Time
	PageToken  string
}

// Server is a running hotadmin server.
type Server struct {
	adminpb.UnimplementedBigtableInstanceAdminServer
	// Addr is where it listens: BIGTABLE_EMULATOR_HOST for btviz.
	Addr string

	opts     Options
	upstream *grpc.ClientConn
	srv      *grpc.Server
	mu       sync.Mutex
	requests []Request
}

// Start starts a server in front of the emulator at upstream, stopped
// when the test ends.
func Start(t testing.TB, upstream string, opts Options) *Server {
	t.Helper()
	if opts.PageSize <= 0 {
		opts.PageSize = 3
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	conn, err := grpc.NewClient("passthrough:///"+upstream, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: lis.Addr().String(), opts: opts, upstream: conn}
	s.srv = grpc.NewServer(grpc.ForceServerCodec(codec{}), grpc.UnknownServiceHandler(s.forward),
		grpc.MaxRecvMsgSize(256<<20), grpc.MaxSendMsgSize(256<<20))
	adminpb.RegisterBigtableInstanceAdminServer(s.srv, s)
	go s.srv.Serve(lis)
	t.Cleanup(func() {
		s.srv.Stop()
		conn.Close()
	})
	return s
}

// Requests returns the ListHotTablets calls made so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// ListClusters answers the planted clusters.
func (s *Server) ListClusters(_ context.Context, req *adminpb.ListClustersRequest) (*adminpb.ListClustersResponse, error) {
	resp := &adminpb.ListClustersResponse{}
	for _, c := range s.opts.Clusters {
		resp.Clusters = append(resp.Clusters, &adminpb.Cluster{Name: req.GetParent() + "/clusters/" + c, ServeNodes: 3})
	}
	return resp, nil
}

// Limits of a request, as Cloud Bigtable's.
const (
	maxRequestWindow = 48 * time.Hour
	maxAge           = 14 * 24 * time.Hour
)

// ListHotTablets answers the planted samples of the cluster that start in
// the window, a page at a time.
func (s *Server) ListHotTablets(_ context.Context, req *adminpb.ListHotTabletsRequest) (*adminpb.ListHotTabletsResponse, error) {
	cluster := req.GetParent()[strings.LastIndexByte(req.GetParent(), '/')+1:]
	start, end := req.GetStartTime().AsTime(), req.GetEndTime().AsTime()
	s.mu.Lock()
	s.requests = append(s.requests, Request{Cluster: cluster, Start: start, End: end, PageToken: req.GetPageToken()})
	s.mu.Unlock()
	if s.opts.Err != nil {
		return nil, s.opts.Err
	}
	now := s.opts.Now()
	switch {
	case !end.After(start):
		return nil, status.Error(codes.InvalidArgument, "start time must be before end time")
	case end.Sub(start) > maxRequestWindow:
		return nil, status.Errorf(codes.InvalidArgument, "the time range %v is longer than 48 hours", end.Sub(start))
	case start.Before(now.Add(-maxAge)):
		return nil, status.Error(codes.InvalidArgument, "start time is older than 14 days")
	}
	var match []*adminpb.HotTablet
	for _, t := range s.opts.Tablets {
		at := t.GetStartTime().AsTime()
		if t.Cluster == cluster && !at.Before(start) && at.Before(end) {
			match = append(match, t.HotTablet)
		}
	}
	slices.SortStableFunc(match, func(a, b *adminpb.HotTablet) int {
		switch {
		case a.GetNodeCpuUsagePercent() > b.GetNodeCpuUsagePercent():
			return -1
		case a.GetNodeCpuUsagePercent() < b.GetNodeCpuUsagePercent():
			return 1
		}
		return 0
	})
	size := s.opts.PageSize
	if req.GetPageSize() > 0 {
		size = int(req.GetPageSize())
	}
	from := 0
	if tok := req.GetPageToken(); tok != "" {
		var err error
		if from, err = strconv.Atoi(tok); err != nil || from < 0 || from > len(match) {
			return nil, status.Errorf(codes.InvalidArgument, "bad page token %q", tok)
		}
	}
	to := min(from+size, len(match))
	resp := &adminpb.ListHotTabletsResponse{HotTablets: match[from:to]}
	if to < len(match) {
		resp.NextPageToken = strconv.Itoa(to)
	}
	return resp, nil
}

// forward relays a call of any other service to the emulator: headers,
// every message both ways, trailers and status.
func (s *Server) forward(_ any, down grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(down)
	ctx, cancel := context.WithCancel(down.Context())
	defer cancel()
	md, _ := metadata.FromIncomingContext(ctx)
	ctx = metadata.NewOutgoingContext(ctx, md.Copy())
	var first raw
	firstErr := down.RecvMsg(&first)
	if firstErr == nil && s.opts.Delay != nil {
		if d := s.opts.Delay(method, first); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	up, err := s.upstream.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method, grpc.ForceCodec(codec{}))
	if err != nil {
		return err
	}
	go func() {
		if firstErr != nil {
			up.CloseSend()
			return
		}
		if err := up.SendMsg(&first); err != nil {
			return
		}
		for {
			var m raw
			if err := down.RecvMsg(&m); err != nil {
				up.CloseSend()
				return
			}
			if err := up.SendMsg(&m); err != nil {
				return
			}
		}
	}()
	if header, err := up.Header(); err == nil && header != nil {
		down.SendHeader(header)
	}
	for {
		var m raw
		if err := up.RecvMsg(&m); err != nil {
			down.SetTrailer(up.Trailer())
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := down.SendMsg(&m); err != nil {
			return err
		}
	}
}

// raw is a message forwarded without being decoded.
type raw []byte

// codec passes raw messages through and encodes every other message as
// protobuf, so that one server both answers the admin calls and forwards
// the rest.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case *raw:
		return *m, nil
	case *adminpb.ListHotTabletsResponse:
		return encodeHotTablets(m), nil
	}
	return proto.Marshal(v.(proto.Message))
}

// encodeHotTablets writes a ListHotTabletsResponse as Cloud Bigtable
// would send one whose keys are bytes, not UTF-8 (a binary key): the
// generated encoder refuses such a proto3 string.
func encodeHotTablets(resp *adminpb.ListHotTabletsResponse) []byte {
	var b []byte
	str := func(b []byte, num protowire.Number, s string) []byte {
		if s == "" {
			return b
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendString(b, s)
	}
	stamp := func(b []byte, num protowire.Number, ts *timestamppb.Timestamp) []byte {
		if ts == nil {
			return b
		}
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.VarintType)
		m = protowire.AppendVarint(m, uint64(ts.GetSeconds()))
		m = protowire.AppendTag(m, 2, protowire.VarintType)
		m = protowire.AppendVarint(m, uint64(ts.GetNanos()))
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, m)
	}
	for _, t := range resp.GetHotTablets() {
		var m []byte
		m = str(m, 1, t.GetName())
		m = str(m, 2, t.GetTableName())
		m = stamp(m, 3, t.GetStartTime())
		m = stamp(m, 4, t.GetEndTime())
		m = str(m, 5, t.GetStartKey())
		m = str(m, 6, t.GetEndKey())
		m = protowire.AppendTag(m, 7, protowire.Fixed32Type)
		m = protowire.AppendFixed32(m, math.Float32bits(t.GetNodeCpuUsagePercent()))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	return str(b, 2, resp.GetNextPageToken())
}

func (codec) Unmarshal(data []byte, v any) error {
	if r, ok := v.(*raw); ok {
		*r = append((*r)[:0], data...)
		return nil
	}
	return proto.Unmarshal(data, v.(proto.Message))
}

func (codec) Name() string { return "proto" }

var _ encoding.Codec = codec{}
