package anthropic

import (
	"encoding/json"
	"errors"
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
// has none. A record that does not decode, or is not a record decode
// writes, is an error: it was written by this package and changed since.
func recordOf(p *model.Part) (nativeRecord, bool, error) {
	raw, ok := p.Meta[Provider]
	if !ok {
		return nativeRecord{}, false, nil
	}
	var rec nativeRecord
	if err := strictjson.Decode(raw, &rec); err != nil {
		return nativeRecord{}, false, fmt.Errorf("anthropic record %s: not a hosted search record: %w", raw, err)
	}
	if err := rec.check(p.DiscoveryCall); err != nil {
		return nativeRecord{}, false, fmt.Errorf("anthropic record %s: not a hosted search record: %w", raw, err)
	}
	return rec, true, nil
}

// blockHead is what a record's check reads of its blocks.
type blockHead struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	ToolUseID string `json:"tool_use_id"`
}

// check accepts the records decode writes: a server_tool_use block of a
// hosted search tool, alone (its result yet to come) or followed by the
// tool_search_tool_result answering it, or that result alone (its call
// came in an earlier message). When the record's part is known, its call
// has the id decode gave it.
func (r nativeRecord) check(call *model.DiscoveryCall) error {
	var use, result blockHead
	if len(r.ServerToolUse) > 0 {
		if err := json.Unmarshal(r.ServerToolUse, &use); err != nil {
			return fmt.Errorf("server_tool_use: %w", err)
		}
		switch {
		case use.Type != "server_tool_use":
			return fmt.Errorf("server_tool_use block has type %q", use.Type)
		case use.ID == "":
			return errors.New("server_tool_use block has no id")
		case use.Name != hostedToolName(SearchBM25) && use.Name != hostedToolName(SearchRegex):
			return fmt.Errorf("server tool %q is not a hosted search tool", use.Name)
		}
	}
	if len(r.ToolSearchResult) > 0 {
		if err := json.Unmarshal(r.ToolSearchResult, &result); err != nil {
			return fmt.Errorf("tool_search_tool_result: %w", err)
		}
		switch {
		case result.Type != "tool_search_tool_result":
			return fmt.Errorf("tool_search_tool_result block has type %q", result.Type)
		case result.ToolUseID == "":
			return errors.New("tool_search_tool_result block has no tool_use_id")
		case use.ID != "" && result.ToolUseID != use.ID:
			return fmt.Errorf("tool_search_tool_result answers %q, not its server_tool_use %q", result.ToolUseID, use.ID)
		}
	}
	id := use.ID
	switch {
	case len(r.ServerToolUse) == 0 && len(r.ToolSearchResult) == 0:
		return errors.New("no server_tool_use and no tool_search_tool_result")
	case id == "":
		id = result.ToolUseID + laterResultSuffix
	}
	if call != nil && call.ID != id {
		return fmt.Errorf("the record is of call %q, held by call %q", id, call.ID)
	}
	return nil
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
