package record

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/btviz/btviz/internal/keyspace"
)

// dataService is the prefix of the full method names of Bigtable's data
// API; the proxy decodes these calls and forwards every other untouched.
const dataService = "/google.bigtable.v2.Bigtable/"

// Data-API methods recorded without keys: they are about a table, but
// not about rows a key-space heatmap can place.
const (
	methodReadChangeStream     = "ReadChangeStream"
	methodInitialPartitions    = "GenerateInitialChangeStreamPartitions"
	changeStreamTableNameField = 1
)

// methodSpec says where one data-API method's request keeps what the
// recording reads: the fields that may hold its resource name (table_name
// and, where the method takes them, authorized_view_name and
// materialized_view_name) and, for the methods that change one row, the
// field of the row key and those of the changes.
type methodSpec struct {
	name        string
	tableFields []protowire.Number
	// rowKey is the row a single-row write names (0: none).
	rowKey protowire.Number
	// written holds the changes (mutations or rules) the call makes;
	// writtenIfFalse the ones CheckAndMutateRow makes when its predicate
	// does not match.
	written, writtenIfFalse protowire.Number
}

// methodSpecs are the data-API methods the proxy records, by name. Any
// other data-API method (PingAndWarm, ExecuteQuery, the session API)
// names no table: it is forwarded and counted, not recorded.
var methodSpecs = map[string]methodSpec{
	keyspace.MethodReadRows:           {name: keyspace.MethodReadRows, tableFields: []protowire.Number{1, 9, 11}},
	keyspace.MethodSampleRowKeys:      {name: keyspace.MethodSampleRowKeys, tableFields: []protowire.Number{1, 4, 5}},
	keyspace.MethodMutateRow:          {name: keyspace.MethodMutateRow, tableFields: []protowire.Number{1, 6}, rowKey: mutateRowKey, written: mutateRowMutations},
	keyspace.MethodMutateRows:         {name: keyspace.MethodMutateRows, tableFields: []protowire.Number{1, 5}},
	keyspace.MethodCheckAndMutateRow:  {name: keyspace.MethodCheckAndMutateRow, tableFields: []protowire.Number{1, 9}, rowKey: mutateRowKey, written: checkTrueMutations, writtenIfFalse: checkFalseMutations},
	keyspace.MethodReadModifyWriteRow: {name: keyspace.MethodReadModifyWriteRow, tableFields: []protowire.Number{1, 6}, rowKey: mutateRowKey, written: rmwRules},
	methodReadChangeStream:            {name: methodReadChangeStream, tableFields: []protowire.Number{changeStreamTableNameField}},
	methodInitialPartitions:           {name: methodInitialPartitions, tableFields: []protowire.Number{changeStreamTableNameField}},
}

// dataMethod returns the data-API method name of a full gRPC method name
// ("/google.bigtable.v2.Bigtable/ReadRows" gives "ReadRows"), or "" for a
// method of any other service.
func dataMethod(fullMethod string) string {
	name, ok := strings.CutPrefix(fullMethod, dataService)
	if !ok {
		return ""
	}
	return name
}
