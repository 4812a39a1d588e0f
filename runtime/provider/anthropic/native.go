package anthropic

import (
	"encoding/json"
	"fmt"
	"regexp"
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
	if err := strictjson.Decode(raw, &rec); err != nil || (len(rec.ServerToolUse) == 0 && len(rec.ToolSearchResult) == 0) {
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

// hostedInput is the input of a server_tool_use block rebuilt from a
// neutral discovery call. The BM25 tool takes a query: the call's query,
// else its names. The regex tool takes a pattern: one that matches any
// of the names asked for and any word of the query, each quoted.
func hostedInput(s HostedSearch, c model.DiscoveryCall) map[string]string {
	if s != SearchRegex {
		q := c.Query
		if q == "" {
			q = strings.Join(c.Names, " ")
		}
		return map[string]string{"query": q}
	}
	terms := make([]string, 0, len(c.Names)+1)
	for _, n := range c.Names {
		terms = append(terms, regexp.QuoteMeta(n))
	}
	for _, w := range strings.Fields(c.Query) {
		terms = append(terms, regexp.QuoteMeta(w))
	}
	return map[string]string{"pattern": strings.Join(terms, "|")}
}
