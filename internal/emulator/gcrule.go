package emulator

import (
	"context"

	btapb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/grpc"
)

// withoutEmptyGCRules is a unary interceptor in front of the embedded
// emulator that drops a column family's empty GC rule (a GcRule with no
// rule set, which the Go client sends for a family created without a
// policy) from CreateTable and ModifyColumnFamilies requests: the same
// family, no rule, as Cloud Bigtable reads it. bttest keeps the empty
// rule and logs "Unsupported GC rule type <nil>" on its first garbage
// collection pass, on the terminal of whoever runs btviz.
func withoutEmptyGCRules(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	switch r := req.(type) {
	case *btapb.CreateTableRequest:
		for _, family := range r.GetTable().GetColumnFamilies() {
			dropEmptyGCRule(family)
		}
	case *btapb.ModifyColumnFamiliesRequest:
		for _, m := range r.GetModifications() {
			dropEmptyGCRule(m.GetCreate())
			dropEmptyGCRule(m.GetUpdate())
		}
	}
	return handler(ctx, req)
}

// dropEmptyGCRule clears family's GC rule when it sets no rule.
func dropEmptyGCRule(family *btapb.ColumnFamily) {
	if family != nil && family.GcRule != nil && family.GcRule.Rule == nil {
		family.GcRule = nil
	}
}
