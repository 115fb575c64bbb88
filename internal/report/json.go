package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/btviz/btviz/internal/escape"
)

// JSON renders the report [Document] as indented JSON with a final
// newline. encoding/json escapes every control character, and keys are
// [keyspace.Printable], so the output holds no raw control bytes.
func JSON(in Input) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Build(in)); err != nil {
		return nil, fmt.Errorf("encoding report of table %s as JSON: %w", escape.Quote(tableName(in)), err)
	}
	return buf.Bytes(), nil
}

func tableName(in Input) string {
	if in.Snapshot == nil {
		return ""
	}
	return in.Snapshot.Table
}
