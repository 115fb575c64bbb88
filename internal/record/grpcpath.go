package record

import (
	"context"
	"errors"
	"io"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// anyStream describes every call to the upstream as streaming both ways,
// so that one handler forwards every method; [oneRequest] is for the
// methods whose client sends exactly one message, which then travels
// with its end-of-stream flag as the client sent it.
var (
	anyStream  = &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}
	oneRequest = &grpc.StreamDesc{ServerStreams: true}
)

// hopHeaders are request headers that belong to one connection and are
// not forwarded: the proxy's own connection sets them.
var hopHeaders = []string{":authority", "user-agent", "content-type", "grpc-accept-encoding", "te"}

// handle forwards one call of any method on the gRPC path (to Cloud
// Bigtable, or from a client that connected while the emulator was
// down): the gRPC server's handler for every service it does not know,
// which is all of them.
func (p *Proxy) handle(_ any, down grpc.ServerStream) (err error) {
	defer p.recoverCall(&err)
	fullMethod, _ := grpc.MethodFromServerStream(down)
	c := p.newCall(fullMethod)
	ctx, cancel := context.WithCancel(down.Context())
	defer cancel()
	md, _ := metadata.FromIncomingContext(ctx)
	for _, key := range hopHeaders {
		delete(md, key)
	}
	if !p.upstream.emulator {
		delete(md, "authorization") // Cloud calls carry the proxy's credentials
	}
	ctx = metadata.NewOutgoingContext(ctx, md)
	conn := p.upstream.conn(fullMethod)

	var up grpc.ClientStream
	if p.clientSendsOne(fullMethod) {
		// Wait for the request, then send it with its end of stream.
		var request frame
		if err := down.RecvMsg(&request); err != nil {
			c.finish(codeOf(err))
			return err
		}
		var scratch []byte
		request.request(c, &scratch) // decoded before it is forwarded
		if up, err = conn.NewStream(ctx, oneRequest, fullMethod, grpc.ForceCodecV2(passThrough{})); err != nil {
			request.free()
			err = p.notForwarded(err)
			c.finish(codeOf(err))
			return err
		}
		if err := up.SendMsg(&request); err != nil {
			request.free() // not sent; the stream's status says why
		}
	} else {
		if up, err = conn.NewStream(ctx, anyStream, fullMethod, grpc.ForceCodecV2(passThrough{})); err != nil {
			err = p.notForwarded(err)
			c.finish(codeOf(err))
			return err
		}
		requests := &requestForwarder{down: down, up: up, call: c, cancel: cancel}
		go requests.run()
		err := forwardResponses(up, down, c)
		if requestErr := requests.failure(); requestErr != nil && status.Code(err) == codes.Canceled {
			return requestErr // the client's side broke first: say how
		}
		p.upstreamUp()
		return err
	}
	p.upstreamUp()
	return forwardResponses(up, down, c)
}

// forwardResponses relays the upstream's answer to the client: its
// headers (if it sent any: a trailers-only answer stays one), every
// message, then its trailers and status, unchanged. It returns the status
// the handler must end the call with.
func forwardResponses(up grpc.ClientStream, down grpc.ServerStream, c *call) error {
	header, _ := up.Header() // the error, if any, comes from RecvMsg
	if header != nil {
		if err := down.SendHeader(header); err != nil {
			c.finish(codeOf(err))
			return err
		}
	}
	var scratch []byte
	for {
		var response frame
		err := up.RecvMsg(&response)
		if err != nil {
			down.SetTrailer(up.Trailer())
			if errors.Is(err, io.EOF) {
				c.finish(uint32(codes.OK))
				return nil
			}
			c.finish(codeOf(err))
			return err
		}
		if c == nil {
			if err := down.SendMsg(&response); err != nil {
				response.free()
				return err
			}
			continue
		}
		// Keep a reference for decoding after forwarding, so that the
		// client never waits for the decoder.
		copied := response.data
		copied.Ref()
		err = down.SendMsg(&response)
		if err != nil {
			response.free()
			copied.Free()
			c.finish(codeOf(err))
			return err
		}
		copiedFrame := frame{data: copied}
		copiedFrame.response(c, &scratch, c.rec.now())
		copied.Free()
	}
}

// requestForwarder relays a streaming client's messages to the upstream,
// on a goroutine of its own, until the client half-closes.
type requestForwarder struct {
	down   grpc.ServerStream
	up     grpc.ClientStream
	call   *call
	cancel context.CancelFunc
	mu     sync.Mutex
	err    error
}

func (r *requestForwarder) run() {
	var scratch []byte
	for {
		var request frame
		err := r.down.RecvMsg(&request)
		if errors.Is(err, io.EOF) {
			r.up.CloseSend()
			return
		}
		if err != nil {
			// The client's side broke (a message over the limit, a reset):
			// end the upstream call and let the handler say why.
			r.mu.Lock()
			r.err = err
			r.mu.Unlock()
			r.cancel()
			return
		}
		request.request(r.call, &scratch) // decoded before it is forwarded
		if err := r.up.SendMsg(&request); err != nil {
			request.free() // the upstream ended the call; its status comes with the responses
			return
		}
	}
}

// failure returns the error that ended the client's side, if any.
func (r *requestForwarder) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// clientSendsOne reports whether fullMethod's client sends exactly one
// message, by the method's descriptor in the protobuf registry (which
// holds the Bigtable data and admin APIs, linked in with the client
// library). An unknown method is treated as streaming, which is always
// correct, only one frame longer.
func (p *Proxy) clientSendsOne(fullMethod string) bool {
	if known, ok := p.unary.Load(fullMethod); ok {
		return known.(bool)
	}
	one := false
	if name, ok := methodDescriptorName(fullMethod); ok {
		if d, err := protoregistry.GlobalFiles.FindDescriptorByName(name); err == nil {
			if method, ok := d.(protoreflect.MethodDescriptor); ok {
				one = !method.IsStreamingClient()
			}
		}
	}
	p.unary.Store(fullMethod, one)
	return one
}

// methodDescriptorName turns "/pkg.Service/Method" into "pkg.Service.Method".
func methodDescriptorName(fullMethod string) (protoreflect.FullName, bool) {
	if len(fullMethod) < 2 || fullMethod[0] != '/' {
		return "", false
	}
	name := []byte(fullMethod[1:])
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			name[i] = '.'
			full := protoreflect.FullName(name)
			return full, full.IsValid()
		}
	}
	return "", false
}

// newCall starts recording a call to fullMethod, or returns nil when
// the call is not recorded (no recorder, not the data API, a method
// about no table).
func (p *Proxy) newCall(fullMethod string) *call {
	if p.recorder == nil {
		return nil
	}
	name := dataMethod(fullMethod)
	if name == "" {
		return nil
	}
	spec, ok := methodSpecs[name]
	if !ok {
		p.recorder.unrecorded.Add(1)
		return nil
	}
	return newCall(p.recorder, spec, p.recorder.now())
}

// codeOf returns the gRPC status code an error ends a call with.
func codeOf(err error) uint32 { return uint32(status.Code(err)) }
