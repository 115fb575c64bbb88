package emulator

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"

	"github.com/btviz/btviz/internal/demo"
	"github.com/btviz/btviz/internal/keyspace"
)

// scenarioChecks holds the defining-feature check of every scenario, by
// name. verifyScenario fails for a scenario without one.
var scenarioChecks = map[string]scenarioCheck{
	"timeseries-reversed-ts":     checkTimeseriesReversed,
	"timeseries-timestamp-first": checkTimestampFirst,
	"users-sequential-ids":       checkUsersSequential,
	"users-reversed-ids":         checkUsersReversed,
	"social-celebrity":           checkCelebrity,
	"social-celebrity-salted":    checkCelebritySalted,
	"phone-device-day":           checkPhoneDeviceDay,
	"multitenant-devices":        checkMultitenant,
	"bus-locations":              checkBusLocations,
	"web-domains-forward":        checkDomainsForward,
	"web-domains-reversed":       checkDomainsReversed,
	"large-row-and-cell":         checkLargeRowAndCell,
	"memusage-single-row":        checkMemusageRow,
	"unpadded-user-ids":          checkUnpaddedIDs,
	"hashed-order-keys":          checkHashedKeys,
	"binary-sensor-keys":         checkBinaryKeys,
	"pii-login-keys":             checkPIIKeys,
	"too-many-families":          checkTooManyFamilies,
	"users-no-delimiter":         checkUsersNoDelimiter,
	"users-hashed-no-delimiter":  checkUsersHashed,
	"accounts-hot-tenth":         checkAccountsHotTenth,
	"two-datasets":               checkTwoDatasets,
	"newcomer-app":               checkNewcomer,
}

// firstUserID is the first auto-increment ID of the user scenarios.
const firstUserID = 10_400_001

// saltBuckets is N of the salted celebrity scenario's hash mod N.
const saltBuckets = 8

// generatedKeys returns the keys a scenario generates, in write order.
func generatedKeys(t *testing.T, name string) []string {
	t.Helper()
	scenarios, err := demo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	err = scenarios[0].Generate(func(key string, _ ...keyspace.Cell) error {
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestEveryScenarioHasACheck keeps scenarioChecks in step with the demo.
func TestEveryScenarioHasACheck(t *testing.T) {
	for _, name := range demo.ScenarioNames() {
		if _, ok := scenarioChecks[name]; !ok {
			t.Errorf("scenario %q has no check in scenarioChecks; add one for its defining feature", name)
		}
	}
}

// requireKeys fails unless every key matches pattern.
func requireKeys(t *testing.T, scan *tableScan, pattern string) {
	t.Helper()
	re := regexp.MustCompile(pattern)
	for _, row := range scan.rows {
		if !re.MatchString(row.key) {
			t.Fatalf("key %q does not match %s", row.key, pattern)
		}
	}
}

// requireOneCellAtKeyTime fails unless every row has one cell stamped with
// the epoch milliseconds that keyMillis reads from its key.
func requireOneCellAtKeyTime(t *testing.T, scan *tableScan, keyMillis func(key string) int64) {
	t.Helper()
	for _, row := range scan.rows {
		if row.cells != 1 || row.oldest.UnixMilli() != keyMillis(row.key) {
			t.Fatalf("row %q: %d cells at %s, want 1 cell at the key's time", row.key, row.cells, row.oldest)
		}
	}
}

// timeInversions counts consecutive rows (in key order) whose newest cell is
// older than the previous row's: 0 for keys that march with time.
func timeInversions(scan *tableScan) int {
	n := 0
	for i := 1; i < len(scan.rows); i++ {
		if scan.rows[i].newest.Before(scan.rows[i-1].newest) {
			n++
		}
	}
	return n
}

func lastSegment(key string) string { return key[strings.LastIndexByte(key, '#')+1:] }

func parseInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return n
}

func checkTimeseriesReversed(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^machine_\d{7}#\d{19}$`)
	requireOneCellAtKeyTime(t, scan, func(key string) int64 { return math.MaxInt64 - parseInt(t, lastSegment(key)) })
	machines := map[string]bool{}
	for i, row := range scan.rows {
		machine := firstSegment(row.key)
		if !machines[machine] {
			machines[machine] = true
			continue
		}
		if row.newest.After(scan.rows[i-1].newest) {
			t.Fatalf("row %q is newer than the row before it: the newest sample of a machine must come first", row.key)
		}
	}
	if len(machines) != 400 {
		t.Errorf("machines = %d, want 400", len(machines))
	}
}

func checkTimestampFirst(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^\d{13}#machine_\d{7}$`)
	requireOneCellAtKeyTime(t, scan, func(key string) int64 { return parseInt(t, firstSegment(key)) })
	if n := timeInversions(scan); n != 0 {
		t.Errorf("%d rows are older than the row before them; timestamp-first keys must march with time", n)
	}
}

func checkUsersSequential(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^\d{8}$`)
	for i, row := range scan.rows {
		if want := fmt.Sprint(firstUserID + i); row.key != want {
			t.Fatalf("row %d key = %q, want %q: IDs must be dense and increasing", i, row.key, want)
		}
	}
	if n := timeInversions(scan); n != 0 {
		t.Errorf("%d accounts signed up before the previous ID; sign-up time must grow with the ID", n)
	}
}

func checkUsersReversed(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^\d{8}$`)
	ids := make([]int, len(scan.rows))
	for i, row := range scan.rows {
		digits := []byte(row.key)
		slices.Reverse(digits)
		ids[i] = int(parseInt(t, string(digits)))
	}
	slices.Sort(ids)
	for i, id := range ids {
		if id != firstUserID+i {
			t.Fatalf("reversed keys give ID %d at %d, want the dense range from %d", id, i, firstUserID)
		}
	}
	if n := timeInversions(scan); n < len(scan.rows)/3 {
		t.Errorf("only %d time inversions in key order; reversed IDs should scatter sign-up times", n)
	}
}

func checkCelebrity(t *testing.T, _ context.Context, _ *bigtable.Client, sc demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^user#[a-z]+_[a-z]+\d*#p\d{6}#\d{13}$`)
	requireOneCellAtKeyTime(t, scan, func(key string) int64 { return parseInt(t, lastSegment(key)) })
	hot := sc.Locations[0].Key
	isHot := func(row scannedRow) bool { return strings.HasPrefix(row.key, hot) }
	rowShare := scan.share(isHot)
	if rowShare < 0.35 || rowShare > 0.40 {
		t.Errorf("%s holds %.1f%% of rows, want 35–40%%", hot, 100*rowShare)
	}
	recentStart := sc.TimeEnd.Add(-24 * time.Hour)
	recent, recentHot := 0, 0
	perUser := map[string]int{}
	for _, row := range scan.rows {
		if !row.newest.Before(recentStart) {
			recent++
			if isHot(row) {
				recentHot++
			}
		}
		if !isHot(row) {
			perUser[strings.Split(row.key, "#")[1]]++
		}
	}
	if recentShare := float64(recentHot) / float64(recent); recentShare < rowShare+0.15 {
		t.Errorf("%s has %.1f%% of the last day's writes, want well above its %.1f%% of rows", hot, 100*recentShare, 100*rowShare)
	}
	for user, n := range perUser {
		if share := float64(n) / float64(len(scan.rows)); share > 0.02 {
			t.Errorf("ordinary user %s holds %.1f%% of rows; only the celebrity should stand out", user, 100*share)
		}
	}
}

func checkCelebritySalted(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[0-7]#user#[a-z]+_[a-z]+\d*#p\d{6}#\d{13}$`)
	var logical []string
	buckets := map[string]int{}
	celebrityBuckets := map[string]int{}
	for _, row := range scan.rows {
		salt, key, _ := strings.Cut(row.key, "#")
		h := fnv.New32a()
		h.Write([]byte(key[:strings.LastIndex(key, "#")])) // without the timestamp
		if want := fmt.Sprint(h.Sum32() % saltBuckets); salt != want {
			t.Fatalf("key %q has salt %s, want hash(key without timestamp) mod %d = %s", row.key, salt, saltBuckets, want)
		}
		logical = append(logical, key)
		buckets[salt]++
		if strings.HasPrefix(key, "user#mila_rosewood#") {
			celebrityBuckets[salt]++
		}
	}
	for salt, n := range buckets {
		if share := float64(n) / float64(len(scan.rows)); share < 0.10 || share > 0.15 {
			t.Errorf("bucket %s holds %.1f%% of rows, want about 12.5%%", salt, 100*share)
		}
	}
	for salt, n := range celebrityBuckets {
		if share := float64(n) / float64(len(scan.rows)); share > 0.06 {
			t.Errorf("the celebrity holds %.1f%% of rows in bucket %s, want about 4.75%%", 100*share, salt)
		}
	}
	if len(buckets) != saltBuckets || len(celebrityBuckets) != saltBuckets {
		t.Errorf("rows in %d buckets, the celebrity in %d, want all %d", len(buckets), len(celebrityBuckets), saltBuckets)
	}
	want := generatedKeys(t, "social-celebrity")
	slices.Sort(logical)
	slices.Sort(want)
	if !slices.Equal(logical, want) {
		t.Error("unsalted keys differ from social-celebrity's keys; both must hold the same events")
	}
}

func checkPhoneDeviceDay(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^(phone|tablet|watch)#[0-9a-f]{8}#\d{8}$`)
	for _, row := range scan.rows {
		day := lastSegment(row.key)
		if row.cells != 3 || row.oldest.Format("20060102") != day || row.newest.Format("20060102") != day {
			t.Fatalf("row %q: %d cells from %s to %s, want 3 cells on day %s", row.key, row.cells, row.oldest, row.newest, day)
		}
	}
	phones := scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "phone#") })
	if phones < 0.45 || phones > 0.55 {
		t.Errorf("phones are %.1f%% of rows, want about 50%%", 100*phones)
	}
}

func checkMultitenant(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[a-z-]+#(thermostat|meter|camera|lock|sensor)#\d{4}#\d{8}$`)
	perTenant := map[string]int{}
	for _, row := range scan.rows {
		perTenant[firstSegment(row.key)]++
		if day := lastSegment(row.key); row.oldest.Format("20060102") != day {
			t.Fatalf("row %q is stamped %s, outside its day", row.key, row.oldest)
		}
	}
	if len(perTenant) < 35 {
		t.Errorf("tenants = %d, want about 40", len(perTenant))
	}
	for tenant, n := range perTenant {
		if share := float64(n) / float64(len(scan.rows)); share > 0.08 {
			t.Errorf("tenant %s holds %.1f%% of rows; no tenant may dominate", tenant, 100*share)
		}
	}
}

func checkBusLocations(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^(STC|MTA|CTA|TTC|KVB)#\d{2}#\d{3}#\d{13}$`)
	requireOneCellAtKeyTime(t, scan, func(key string) int64 { return parseInt(t, lastSegment(key)) })
	vehicles := map[string]bool{}
	for _, row := range scan.rows {
		vehicles[row.key[:strings.LastIndexByte(row.key, '#')]] = true
	}
	if len(vehicles) != 400 {
		t.Errorf("vehicles = %d, want 400", len(vehicles))
	}
}

var topLevelDomains = map[string]bool{"com": true, "org": true, "uk": true, "de": true, "fr": true, "dev": true, "gov": true, "int": true, "eu": true, "au": true, "jp": true, "ru": true}

// checkSiteShares fails if one registrable site holds too many pages.
func checkSiteShares(t *testing.T, scan *tableScan, site func(host string) string) {
	t.Helper()
	perSite := map[string]int{}
	for _, row := range scan.rows {
		host, _, _ := strings.Cut(row.key, "/")
		perSite[site(host)]++
	}
	for s, n := range perSite {
		if share := float64(n) / float64(len(scan.rows)); share > 0.15 {
			t.Errorf("site %s holds %.1f%% of pages; the crawl must be skewed, not dominated", s, 100*share)
		}
	}
	if len(perSite) < 30 {
		t.Errorf("sites = %d, want about 40", len(perSite))
	}
}

func checkDomainsForward(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[a-z0-9-]+(\.[a-z0-9-]+)+/`)
	for _, row := range scan.rows {
		host, _, _ := strings.Cut(row.key, "/")
		labels := strings.Split(host, ".")
		if !topLevelDomains[labels[len(labels)-1]] {
			t.Fatalf("key %q: want a crawled page's host written forward, ending in its top-level domain", row.key)
		}
	}
	if scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "maps.google.com/") }) == 0 {
		t.Error("no page of maps.google.com")
	}
	checkSiteShares(t, scan, func(host string) string {
		labels := strings.Split(host, ".")
		return strings.Join(labels[max(0, len(labels)-2):], ".")
	})
}

func checkDomainsReversed(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[a-z0-9-]+(\.[a-z0-9-]+)+/`)
	want := map[string]bool{}
	for _, key := range generatedKeys(t, "web-domains-forward") {
		host, path, _ := strings.Cut(key, "/")
		labels := strings.Split(host, ".")
		slices.Reverse(labels)
		want[strings.Join(labels, ".")+"/"+path] = true
	}
	for _, row := range scan.rows {
		if !topLevelDomains[strings.Split(row.key, ".")[0]] {
			t.Fatalf("key %q: the host must be reversed, starting with its top-level domain", row.key)
		}
		if !want[row.key] {
			t.Fatalf("key %q is not a reversed key of web-domains-forward's pages", row.key)
		}
	}
	if scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "com.google.maps/") }) == 0 {
		t.Error("no page of com.google.maps")
	}
	checkSiteShares(t, scan, func(host string) string {
		labels := strings.Split(host, ".")
		return strings.Join(labels[:min(2, len(labels))], ".")
	})
}

func checkLargeRowAndCell(t *testing.T, ctx context.Context, client *bigtable.Client, sc demo.Scenario, scan *tableScan) {
	largeRow, largeCell := sc.Locations[0].Key, sc.Locations[1].Key
	rowBytes, cellBytes, largestNormalRow := 0, 0, 0
	chunks := 0
	err := client.Open(sc.Name).ReadRows(ctx, bigtable.InfiniteRange(""), func(row bigtable.Row) bool {
		size := 0
		for _, items := range row {
			for _, item := range items {
				size += len(item.Value)
				if row.Key() == largeCell && item.Column == "blob:data" {
					cellBytes = len(item.Value)
				}
				if row.Key() == largeRow && strings.HasPrefix(item.Column, "blob:chunk-") {
					chunks++
				}
			}
		}
		switch row.Key() {
		case largeRow:
			rowBytes = size
		case largeCell:
		default:
			largestNormalRow = max(largestNormalRow, size)
		}
		return true
	})
	if err != nil {
		t.Fatalf("read table %q with values: %v", sc.Name, err)
	}
	if rowBytes <= 100_000_000 || rowBytes >= 256<<20 {
		t.Errorf("row %q holds %d bytes, want over 100 MB and under the 256 MiB limit", largeRow, rowBytes)
	}
	if chunks != 120 {
		t.Errorf("row %q has %d chunk cells, want 120", largeRow, chunks)
	}
	if cellBytes <= 10_000_000 {
		t.Errorf("cell %q blob:data holds %d bytes, want over 10 MB", largeCell, cellBytes)
	}
	if largestNormalRow > 4096 {
		t.Errorf("the largest ordinary row holds %d bytes, want small rows around the two big ones", largestNormalRow)
	}
	requireKeys(t, scan, `^media#[a-z_0-9]+#[0-9a-z-]+$`)
}

func checkMemusageRow(t *testing.T, ctx context.Context, client *bigtable.Client, sc demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[0-9a-f]{8}#memusage(#\d{13})?$`)
	key := sc.Locations[0].Key
	row, err := client.Open(sc.Name).ReadRow(ctx, key)
	if err != nil {
		t.Fatalf("read row %q: %v", key, err)
	}
	versions := row["stats"]
	if len(versions) != 5000 {
		t.Fatalf("row %q has %d versions, want 5000", key, len(versions))
	}
	for i := 1; i < len(versions); i++ {
		gap := versions[i-1].Timestamp.Time().Sub(versions[i].Timestamp.Time())
		if versions[i].Column != "stats:memusage" || gap < 14*time.Second || gap > 16*time.Second {
			t.Fatalf("version %d of %s is %s after the previous one, want about 15 s", i, versions[i].Column, gap)
		}
	}
	for _, r := range scan.rows {
		if r.key != key && (r.cells != 1 || !strings.HasPrefix(r.key[9:], "memusage#")) {
			t.Fatalf("row %q has %d cells, want one reading per row", r.key, r.cells)
		}
	}
}

func checkUnpaddedIDs(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^user#[1-9]\d*$`)
	widths := map[int]int{}
	ids := make([]int64, len(scan.rows))
	for i, row := range scan.rows {
		id := lastSegment(row.key)
		widths[len(id)]++
		ids[i] = parseInt(t, id)
	}
	if len(widths) != 7 {
		t.Errorf("ID widths %v, want every width from 1 to 7 digits", widths)
	}
	if slices.IsSorted(ids) {
		t.Error("key order equals numeric order; unpadded IDs must sort differently")
	}
	if n := timeInversions(scan); n < len(scan.rows)/3 {
		t.Errorf("only %d time inversions: write times must not follow the IDs", n)
	}
}

func checkHashedKeys(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[0-9a-f]{16}#(order|invoice|shipment)$`)
	perFirstHex := map[byte]int{}
	for _, row := range scan.rows {
		perFirstHex[row.key[0]]++
	}
	if len(perFirstHex) != 16 {
		t.Errorf("keys start with %d different hex digits, want all 16", len(perFirstHex))
	}
}

func checkBinaryKeys(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	found := map[byte]bool{}
	for _, row := range scan.rows {
		key := []byte(row.key)
		if len(key) != 12 {
			t.Fatalf("key %q is %d bytes, want 12", key, len(key))
		}
		if millis := int64(binary.BigEndian.Uint64(key[4:])); row.cells != 1 || row.oldest.UnixMilli() != millis {
			t.Fatalf("key %q encodes %d ms, its cell is at %s", key, millis, row.oldest)
		}
		for _, b := range []byte{0x1b, 0x00, 0x07, 0x9b} {
			if bytes.IndexByte(key, b) >= 0 {
				found[b] = true
			}
		}
	}
	for _, b := range []byte{0x1b, 0x00, 0x07, 0x9b} {
		if !found[b] {
			t.Errorf("no key holds byte %#02x", b)
		}
	}
	if scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "\x1b[31") }) == 0 {
		t.Error(`no key starts with the ANSI sequence "\x1b[31"`)
	}
}

func checkPIIKeys(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^[^#]+#\d{13}$`)
	requireOneCellAtKeyTime(t, scan, func(key string) int64 { return parseInt(t, lastSegment(key)) })
	email := regexp.MustCompile(`^[a-z0-9._]+@(mail\.)?example\.(com|org|net)#`)
	phone := regexp.MustCompile(`^\+(447700900\d{3}|1\d{3}55501\d{2})#`)
	emails := scan.share(func(row scannedRow) bool { return email.MatchString(row.key) })
	phones := scan.share(func(row scannedRow) bool { return phone.MatchString(row.key) })
	if emails < 0.7 || phones < 0.1 || emails+phones != 1 {
		t.Errorf("keys: %.1f%% e-mail, %.1f%% phone; want every key to lead with one, mostly e-mail", 100*emails, 100*phones)
	}
	if scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "alice.smith@example.com#") }) == 0 {
		t.Error("no sign-in of alice.smith@example.com")
	}
}

func checkTooManyFamilies(t *testing.T, _ context.Context, _ *bigtable.Client, sc demo.Scenario, scan *tableScan) {
	if len(sc.Families) < 100 {
		t.Errorf("families = %d, want over 100", len(sc.Families))
	}
	if len(scan.families) != len(sc.Families) {
		t.Errorf("cells in %d families, want all %d used", len(scan.families), len(sc.Families))
	}
	requireKeys(t, scan, `^[a-z]+-\d{2}-[a-z0-9]+#\d{19}$`)
	for _, row := range scan.rows {
		if row.columns < 3 || row.columns > 6 {
			t.Fatalf("row %q has %d columns, want 3–6", row.key, row.columns)
		}
	}
}

func checkUsersNoDelimiter(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^user[1-9]\d*$`)
	byID := slices.Clone(scan.rows)
	slices.SortFunc(byID, func(a, b scannedRow) int {
		return cmp.Compare(parseInt(t, strings.TrimPrefix(a.key, "user")), parseInt(t, strings.TrimPrefix(b.key, "user")))
	})
	for i, row := range byID {
		if want := fmt.Sprintf("user%d", i+1); row.key != want {
			t.Fatalf("ID %d is %q, want %q: IDs must be dense from 1", i+1, row.key, want)
		}
		if i > 0 && !row.newest.After(byID[i-1].newest) {
			t.Fatalf("%s is not newer than %s: accounts must sign up in ID order", row.key, byID[i-1].key)
		}
	}
	if timeInversions(scan) == 0 {
		t.Error("key order equals write order; unpadded IDs must sort differently")
	}
}

func checkUsersHashed(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^user\d{1,20}$`)
	widths := map[int]int{}
	for _, row := range scan.rows {
		widths[len(row.key)-len("user")]++
	}
	if widths[19]+widths[20] < len(scan.rows)*9/10 {
		t.Errorf("hash widths %v, want mostly 19 and 20 digits as a 64-bit hash has", widths)
	}
	if n := timeInversions(scan); n < len(scan.rows)/3 {
		t.Errorf("only %d time inversions: hashed keys must scatter write times", n)
	}
}

func checkAccountsHotTenth(t *testing.T, _ context.Context, _ *bigtable.Client, sc demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^acct#\d{8}$`)
	hot := sc.Locations[0].Key
	var hotRows, hotWrites, writes int
	for _, row := range scan.rows {
		writes += row.maxVersions
		if strings.HasPrefix(row.key, hot) {
			hotRows++
			hotWrites += row.maxVersions
		}
		if row.columns != 1 {
			t.Fatalf("row %q has %d columns, want the one balance column", row.key, row.columns)
		}
	}
	rowShare, writeShare := float64(hotRows)/float64(len(scan.rows)), float64(hotWrites)/float64(writes)
	if rowShare < 0.08 || rowShare > 0.12 || writeShare < 0.6 {
		t.Errorf("%s holds %.1f%% of rows and %.1f%% of versions, want about 10%% and over 60%%", hot, 100*rowShare, 100*writeShare)
	}
}

func checkTwoDatasets(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^(event#[0-9a-f]{8}#\d{19}|profile#[0-9a-f]{8})$`)
	events := scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "event#") })
	if events < 0.8 || events > 0.9 {
		t.Errorf("events are %.1f%% of rows, want about 85%%", 100*events)
	}
	for _, row := range scan.rows {
		if row.maxVersions != 1 {
			t.Fatalf("row %q has a column with %d versions, want every row written once", row.key, row.maxVersions)
		}
	}
}

func checkNewcomer(t *testing.T, _ context.Context, _ *bigtable.Client, _ demo.Scenario, scan *tableScan) {
	requireKeys(t, scan, `^(user#u\d{4}#item#\d{3}|config#global|\d{13}#sensor\d{2})$`)
	users := scan.share(func(row scannedRow) bool { return strings.HasPrefix(row.key, "user#") })
	sensors := scan.share(func(row scannedRow) bool { return row.key[0] >= '0' && row.key[0] <= '9' })
	if users < 0.8 || users > 0.86 || sensors < 0.14 || sensors > 0.2 {
		t.Errorf("users' items are %.1f%% and sensor readings %.1f%% of rows, want about 83%% and 17%%", 100*users, 100*sensors)
	}
	for _, row := range scan.rows {
		switch {
		case row.key == demo.NewcomerConfigRow && row.maxVersions != 5:
			t.Errorf("%s keeps %d versions, want 5", row.key, row.maxVersions)
		case row.key != demo.NewcomerConfigRow && row.maxVersions != 1:
			t.Fatalf("row %q has %d versions, want every item and reading written once", row.key, row.maxVersions)
		}
	}
}
