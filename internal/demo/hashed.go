package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// Commerce documents keyed by a hash of their ID.
const (
	hashedDocuments = 20_000
	hashedWindow    = 7 * 24 * time.Hour
)

var documentKinds = []string{"order", "order", "order", "invoice", "shipment"}

// hashedKeysScenario: orders, invoices and shipments keyed by a truncated
// SHA-256 of their ID (bad).
//
// Key: <first 16 hex chars of sha256("<kind>:<id>")>#<kind>, e.g.
// 3f2a9c0b7d41e855#order. Rows: 20,000 documents created at random times in
// the last 7 days, one cell doc:json (~120 B). Writes spread evenly, but
// the keys say nothing: no range scan by customer or date is possible.
// Expects hashed-key, table-wide.
func hashedKeysScenario() Scenario {
	w := lastWindow(hashedWindow)
	return Scenario{
		Name:        "hashed-order-keys",
		Description: "orders keyed by a truncated SHA-256 of the order ID: even spread, no meaningful order (bad)",
		KeyFormat:   "<sha256(kind:id), first 16 hex>#<order|invoice|shipment>",
		Expect:      []string{kindHashedKey},
		Families:    []string{"doc"},
		Rows:        hashedDocuments,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("hashed-order-keys")
			for i := range hashedDocuments {
				kind := pick(r, documentKinds)
				id := fmt.Sprintf("%d", 88_000_000+i)
				sum := sha256.Sum256([]byte(kind + ":" + id))
				key := hex.EncodeToString(sum[:8]) + "#" + kind
				doc := measure(`{"id":"%s","customer":"c_%06d","currency":"%s","total_cents":%d,"items":%d,"status":"%s"}`,
					id, r.IntN(400_000), pick(r, []string{"EUR", "USD", "GBP", "JPY"}), 499+r.IntN(250_000), 1+r.IntN(9),
					pick(r, []string{"created", "paid", "packed", "shipped", "delivered"}))
				if err := put(key, cellAt("doc", "json", randomTime(r, w.start, w.end), doc)); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
