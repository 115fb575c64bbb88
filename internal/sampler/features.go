package sampler

import (
	"context"
	"encoding/base64"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// featureFlagsHeader is the metadata key under which a Bigtable client
// advertises the protocol features it supports.
const featureFlagsHeader = "bigtable-features"

// withoutScanHeartbeats advertises, ahead of the official client's own
// header, the client's features minus last-scanned-row responses. On
// Cloud Bigtable those heartbeats let a retry resume after the rows a
// filter dropped; the emulator instead answers every row a sample filter
// drops with one message, so a 5% sample cost nearly what a full read
// does. The emulator reads only the first value of the header, so this
// one wins there; it is used on emulators only.
func withoutScanHeartbeats(ctx context.Context) context.Context {
	flags, err := proto.Marshal(&btpb.FeatureFlags{ReverseScans: true, RetryInfo: true})
	if err != nil {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, featureFlagsHeader, base64.URLEncoding.EncodeToString(flags))
}
