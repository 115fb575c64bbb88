package record

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/btviz/btviz/keyspace"
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

// methodSpec says how to find the table of one data-API method's request:
// the fields that may hold its resource name (table_name and, where the
// method takes them, authorized_view_name and materialized_view_name).
type methodSpec struct {
	name        string
	tableFields []protowire.Number
}

// methodSpecs are the data-API methods the proxy records, by name. Any
// other data-API method (PingAndWarm, ExecuteQuery, the session API)
// names no table: it is forwarded and counted, not recorded.
var methodSpecs = map[string]methodSpec{
	keyspace.MethodReadRows:           {keyspace.MethodReadRows, []protowire.Number{1, 9, 11}},
	keyspace.MethodSampleRowKeys:      {keyspace.MethodSampleRowKeys, []protowire.Number{1, 4, 5}},
	keyspace.MethodMutateRow:          {keyspace.MethodMutateRow, []protowire.Number{1, 6}},
	keyspace.MethodMutateRows:         {keyspace.MethodMutateRows, []protowire.Number{1, 5}},
	keyspace.MethodCheckAndMutateRow:  {keyspace.MethodCheckAndMutateRow, []protowire.Number{1, 9}},
	keyspace.MethodReadModifyWriteRow: {keyspace.MethodReadModifyWriteRow, []protowire.Number{1, 6}},
	methodReadChangeStream:            {methodReadChangeStream, []protowire.Number{changeStreamTableNameField}},
	methodInitialPartitions:           {methodInitialPartitions, []protowire.Number{changeStreamTableNameField}},
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
