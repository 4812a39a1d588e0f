package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// nativeRecord is what this adapter keeps in a discovery call part's Meta
// under Provider: the hosted search blocks exactly as the provider sent
// them, sent back unchanged when the conversation continues with the same
// hosted search tool.
type nativeRecord struct {
	// ServerToolUse is the server_tool_use block.
	ServerToolUse json.RawMessage `json:"server_tool_use,omitempty"`
	// ToolSearchResult is the tool_search_tool_result block answering it.
	ToolSearchResult json.RawMessage `json:"tool_search_tool_result,omitempty"`
}

// recordOf reads the native record of a part; ok is false when the part
// has none. A record that does not decode is an error: it was written by
// this package and changed since.
func recordOf(p *model.Part) (nativeRecord, bool, error) {
	raw, ok := p.Meta[Provider]
	if !ok {
		return nativeRecord{}, false, nil
	}
	var rec nativeRecord
	if err := strictjson.Decode(raw, &rec); err != nil || len(rec.ServerToolUse) == 0 {
		return nativeRecord{}, false, fmt.Errorf("anthropic record %s: not a hosted search record", raw)
	}
	return rec, true, nil
}

// serverToolName reads the tool name of a server_tool_use block.
func serverToolName(raw json.RawMessage) string {
	var b struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	return b.Name
}

// hostedQuery is the query of a hosted search call rebuilt from a neutral
// discovery call: its query, else its names.
func hostedQuery(c model.DiscoveryCall) string {
	if c.Query != "" {
		return c.Query
	}
	return strings.Join(c.Names, " ")
}
