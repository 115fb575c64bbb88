package diagnose

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/btviz/btviz/internal/keyspace"
)

// TestDatasetsByKeyForm: the datasets found in tables of known forms, by
// name: tag words each a dataset while few, many words of one shape one
// dataset, words glued to numbers, numbers by width, hex IDs that happen
// to hold no letter kept with the hex, e-mail addresses and phone numbers
// before the same shape of key one dataset, and binary keys one whatever
// delimiter bytes they hold by chance. Every key lies in the range of
// the dataset it belongs to.
func TestDatasetsByKeyForm(t *testing.T) {
	var (
		newcomer, tenants, fewTenants, handles, glued, gluedFields, twoDelimiters, hexes, salted, logins, binary, tagged, hosts []string
	)
	for u := range 200 {
		for item := range 10 {
			newcomer = append(newcomer, fmt.Sprintf("user#u%04d#item#%03d", u, item))
		}
	}
	for i := range 400 {
		newcomer = append(newcomer, fmt.Sprintf("%013d#sensor%02d", 1_793_400_000_000+int64(i)*60_000, i%20))
		tenants = append(tenants, fmt.Sprintf("tenant%c%c#sensor#%04d#2026103%d", 'a'+i%20, 'a'+i%7, i, i%2))
		fewTenants = append(fewTenants, fmt.Sprintf("%s#sensor#%04d#2026103%d", []string{"acme", "globex", "initech"}[i%3], i, i%2))
		handles = append(handles, fmt.Sprintf("%s_%s#p%03d#%013d", []string{"alice", "bob", "carmen", "dmitri", "emma"}[i%5],
			[]string{"smith", "fischer", "garcia", "ivanova", "mensah", "nguyen"}[i%6]+fmt.Sprint(i%17), i%9, 1_793_400_000_000+int64(i)))
		glued = append(glued, fmt.Sprintf("invoice%d", i+1), fmt.Sprintf("ticket%d", i+1))
		gluedFields = append(gluedFields, fmt.Sprintf("invoice%d#line%d", i+1, i%7), fmt.Sprintf("ticket%d#%04d", i+1, i))
		twoDelimiters = append(twoDelimiters, fmt.Sprintf("user#u%03d", i), fmt.Sprintf("user:u%03d", i))
		hex := fmt.Sprintf("%08x", uint32(i)*2654435761)
		hexes = append(hexes, hex+"#9223370243364407807")
		salted = append(salted, fmt.Sprintf("%d#user#u%03d#p%02d", i%8, i, i%5), hex+"#9223370243364407807")
		if i%3 == 0 {
			logins = append(logins, fmt.Sprintf("+1415555%04d#%013d", i, 1_793_400_000_000+int64(i)))
		} else {
			logins = append(logins, fmt.Sprintf("user%d@example.com#%013d", i, 1_793_400_000_000+int64(i)))
		}
		binary = append(binary, string([]byte{byte(i), byte(i * 7), '|', byte(i * 13), 0, 1}))
		tagged = append(tagged, fmt.Sprintf("user#u%03d", i), "user#\x00\x01"+string(rune('a'+i%26)))
		hosts = append(hosts, fmt.Sprintf("%s.example.com#%06d", []string{"www", "maps", "docs", "news"}[i%4], i), fmt.Sprintf("crawl#%06d", i))
	}
	newcomer = append(newcomer, "config#global")
	for _, tc := range []struct {
		name string
		keys []string
		want []string
	}{
		{"newcomer", newcomer, []string{"<timestamp (epoch milliseconds)>#...", "config#", "user#"}},
		{"many tenants", tenants, []string{"<word>#..."}},
		{"few tenants", fewTenants, []string{"acme#", "globex#", "initech#"}},
		{"handles and config", append(slices.Clone(handles), "config#global"), []string{"<word>#...", "config#"}},
		{"glued words", glued, []string{"invoice", "ticket"}},
		{"glued words before a delimiter", gluedFields, []string{"invoice", "ticket"}},
		{"one tag, two delimiters", twoDelimiters, []string{"user"}},
		{"hex with and without letters", hexes, []string{"<hex, short>#..."}},
		{"salt and hex", salted, []string{"<1-digit number>#...", "<hex, short>#..."}},
		{"e-mail or phone", logins, []string{"<email or phone>#..."}},
		{"binary", binary, []string{"<binary>"}},
		{"tag then binary", tagged, []string{"user#"}},
		{"hosts and a tag", hosts, []string{"<host name>#...", "crawl#"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slices.Sort(tc.keys)
			idx := findDatasets(keysSnapshot(tc.keys, ""))
			var got []string
			for _, ds := range idx.list {
				got = append(got, ds.Name)
			}
			for _, key := range tc.keys {
				at := idx.of(key)
				if at < 0 {
					t.Errorf("key %q belongs to no dataset", key)
					continue
				}
				if ds := idx.list[at]; key < string(ds.Start) || (ds.End != "" && key >= string(ds.End)) {
					t.Errorf("key %q lies outside its dataset %s, [%q, %q)", key, ds.Name, ds.Start, ds.End)
				}
			}
			want := slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("datasets %q, want %q", got, want)
			}
		})
	}
}

// TestDatasetSharesAddUp: the datasets' shares of rows, bytes and writes
// each add up to the table's, and a prefix dataset's rows are its tree
// node's, exact after a full scan.
func TestDatasetSharesAddUp(t *testing.T) {
	snap := scenarioSnapshot(t, "newcomer-app")
	var rows, bytes, writes float64
	for _, ds := range Datasets(snap) {
		rows += ds.RowShare
		bytes += ds.ByteShare
		writes += ds.WriteShare
		if ds.Name == "user#" && ds.Rows != 20_000 {
			t.Errorf("user# has %v rows, want its 20,000", ds.Rows)
		}
		if strings.HasPrefix(ds.Name, "<timestamp") && (ds.Rows < 3_999 || ds.Rows > 4_001) {
			t.Errorf("the sensor readings have %v rows, want 4,000", ds.Rows)
		}
	}
	for name, sum := range map[string]float64{"rows": rows, "bytes": bytes, "writes": writes} {
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("the datasets' shares of %s add up to %v, want 1", name, sum)
		}
	}
}

// TestDatasetRowsNotFromABareWordsRow: a dataset whose prefix has no
// delimiter (invoice, of invoice123#line4) takes its rows from the tree
// only where the prefix's node holds its range; a row keyed by the bare
// word is not that node. Full scans, so the rows are exact.
func TestDatasetRowsNotFromABareWordsRow(t *testing.T) {
	for _, tc := range []struct{ name, word, delimiters string }{
		{"glued words before a delimiter", "invoice", "#"},
		{"one tag, two delimiters", "user", "#:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := []string{tc.word} // the bare word's own row
			for i := range 200 {
				if tc.word == "invoice" {
					keys = append(keys, fmt.Sprintf("invoice%d#line%d", i+1, i%7))
				} else {
					keys = append(keys, fmt.Sprintf("user#u%03d", i), fmt.Sprintf("user:u%03d", i))
				}
				keys = append(keys, fmt.Sprintf("ticket%d#%04d", i+1, i))
			}
			slices.Sort(keys)
			idx := findDatasets(keysSnapshot(keys, tc.delimiters))
			for _, ds := range idx.list {
				if ds.Prefix != keyspace.Key(tc.word) || ds.keys < 2 {
					continue
				}
				if int(ds.Rows) != ds.keys {
					t.Errorf("dataset %s [%q, %q) of %d keys has %v rows, want %d", ds.Name, ds.Start, ds.End, ds.keys, ds.Rows, ds.keys)
				}
				return
			}
			t.Fatalf("no dataset of %s's keys among %d", tc.word, len(idx.list))
		})
	}
}
