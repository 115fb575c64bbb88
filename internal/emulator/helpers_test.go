package emulator

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"slices"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/demo"
)

const (
	testProject  = "local"
	testInstance = "btviz"
)

// testEmulator is a running embedded emulator and clients for it.
type testEmulator struct {
	server *Server
	client *bigtable.Client
	admin  *bigtable.AdminClient
}

// startEmulator starts an embedded emulator for one test and dials it; the
// emulator and clients close when the test ends.
func startEmulator(t testing.TB) *testEmulator {
	t.Helper()
	server, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Close() })
	client, admin := dialForTest(t, server.Addr, testInstance)
	return &testEmulator{server: server, client: client, admin: admin}
}

// dialForTest dials an emulator at addr for instance and closes the
// clients when the test ends.
func dialForTest(t testing.TB, addr, instance string) (*bigtable.Client, *bigtable.AdminClient) {
	t.Helper()
	client, admin, err := Dial(context.Background(), addr, testProject, instance)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := client.Close(); err != nil {
			t.Errorf("close data client: %v", err)
		}
		if err := admin.Close(); err != nil {
			t.Errorf("close admin client: %v", err)
		}
	})
	return client, admin
}

// testContext is a context that ends with the test or after limit.
func testContext(t testing.TB, limit time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	return ctx
}

// scannedRow is what a value-stripped scan tells about one row.
type scannedRow struct {
	key            string
	cells, columns int
	maxVersions    int
	oldest, newest time.Time
}

// tableScan is a whole table read back through the official client, with
// values stripped.
type tableScan struct {
	rows     []scannedRow
	families map[string]int // cells per family
	// digest hashes every key, column and timestamp in scan order.
	digest [sha256.Size]byte
}

// scanTable reads every row of table with values stripped.
func scanTable(t testing.TB, ctx context.Context, client *bigtable.Client, table string) *tableScan {
	t.Helper()
	scan := &tableScan{families: map[string]int{}}
	digest := sha256.New()
	err := client.Open(table).ReadRows(ctx, bigtable.InfiniteRange(""), func(row bigtable.Row) bool {
		scanned := scannedRow{key: row.Key()}
		writeString(digest, row.Key())
		families := make([]string, 0, len(row))
		for family := range row {
			families = append(families, family)
		}
		slices.Sort(families)
		for _, family := range families {
			versions := map[string]int{}
			for _, item := range row[family] {
				at := item.Timestamp.Time().UTC()
				if scanned.cells == 0 || at.Before(scanned.oldest) {
					scanned.oldest = at
				}
				if scanned.cells == 0 || at.After(scanned.newest) {
					scanned.newest = at
				}
				scanned.cells++
				versions[item.Column]++
				scanned.maxVersions = max(scanned.maxVersions, versions[item.Column])
				scan.families[family]++
				writeString(digest, item.Column)
				_ = binary.Write(digest, binary.BigEndian, int64(item.Timestamp))
			}
			scanned.columns += len(versions)
		}
		scan.rows = append(scan.rows, scanned)
		return true
	}, bigtable.RowFilter(bigtable.StripValueFilter()))
	if err != nil {
		t.Fatalf("scan table %q: %v", table, err)
	}
	copy(scan.digest[:], digest.Sum(nil))
	return scan
}

// generatedDigest hashes what a scan of sc's table must return, as
// tableScan.digest does.
func generatedDigest(t testing.TB, sc demo.Scenario) [sha256.Size]byte {
	t.Helper()
	rows, err := sc.ScannedRows()
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.New()
	for _, row := range rows {
		writeString(digest, row.Key)
		for _, c := range row.Cells {
			writeString(digest, c.Family+":"+c.Qualifier)
			_ = binary.Write(digest, binary.BigEndian, c.Timestamp)
		}
	}
	var sum [sha256.Size]byte
	copy(sum[:], digest.Sum(nil))
	return sum
}

func writeString(h hash.Hash, s string) {
	_ = binary.Write(h, binary.BigEndian, uint32(len(s)))
	h.Write([]byte(s))
}

// share returns the fraction of rows for which match is true.
func (s *tableScan) share(match func(scannedRow) bool) float64 {
	n := 0
	for _, row := range s.rows {
		if match(row) {
			n++
		}
	}
	return float64(n) / float64(len(s.rows))
}

// firstSegment returns a key's text up to its first '#'.
func firstSegment(key string) string {
	segment, _, _ := strings.Cut(key, "#")
	return segment
}
