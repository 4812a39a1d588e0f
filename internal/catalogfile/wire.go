package catalogfile

// Tools given as their wire records (tools.ToolSchema, what a registry
// publishes and a generated toolset package returns), searched as the
// runtime searches a deferred tool.

import (
	"encoding/json"
	"fmt"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// wireOnlyFields are the keys that a tool's wire record has and a catalog
// line does not: a line with any of them is a wire record.
var wireOnlyFields = [...]string{"payload", "result", "tags", "contract"}

// lineKind is what the JSON object on one line of a catalog is.
type lineKind int

const (
	// catalogLine is {name, title, description, parameters, source}, or a
	// line that is not an object, which the catalog line decoder refuses.
	catalogLine lineKind = iota
	// wireRecordLine has a key that only a tool's wire record has.
	wireRecordLine
	// listingLine has a "tools" member: a toolset record or an MCP
	// tools/list result among other lines.
	listingLine
)

// kindOfLine tells a tool's wire record, a listing and a catalog line apart
// by their keys.
func kindOfLine(text []byte) lineKind {
	var keys map[string]json.RawMessage
	if json.Unmarshal(text, &keys) != nil {
		return catalogLine
	}
	if _, ok := keys["tools"]; ok {
		return listingLine
	}
	for _, k := range wireOnlyFields {
		if _, ok := keys[k]; ok {
			return wireRecordLine
		}
	}
	return catalogLine
}

// WireDocument returns the search document of a tool's wire record, the
// document the runtime and generated search indexes hold for a deferred
// tool: named by its identifier, with the name the model calls it by as
// alias, its title and description, the model-facing parameters of
// discovery.EntryFromSchema (the payload without server-only fields) and
// the contract's search terms. The record must pass ToolSchema.Validate.
func WireDocument(ts *tools.ToolSchema) (toolsearch.Document, error) {
	entry, err := discovery.EntryFromSchema(ts)
	if err != nil {
		return toolsearch.Document{}, err
	}
	return toolsearch.Document{
		Name:        entry.Name,
		Alias:       entry.Snapshot.Name,
		Title:       entry.Title,
		Description: entry.Snapshot.Description,
		Parameters:  entry.Snapshot.Parameters,
		SearchTerms: entry.SearchTerms,
	}, nil
}

// wireLine decodes one line that is a tool's wire record.
func wireLine(text []byte) (toolsearch.Document, error) {
	var ts tools.ToolSchema
	if err := strictjson.Decode(text, &ts); err != nil {
		return toolsearch.Document{}, fmt.Errorf("tool wire record (a line with %q, %q, %q or %q): %w",
			wireOnlyFields[0], wireOnlyFields[1], wireOnlyFields[2], wireOnlyFields[3], err)
	}
	if ts.Name == "" {
		return toolsearch.Document{}, fmt.Errorf("tool wire record: missing or empty \"name\"")
	}
	doc, err := WireDocument(&ts)
	if err != nil {
		return toolsearch.Document{}, fmt.Errorf("tool wire record: %w", err)
	}
	return doc, nil
}

// readToolset reads a document that is a toolset's wire record
// (tools.ToolsetSchema): its tools, in order.
func readToolset(data []byte) ([]toolsearch.Document, error) {
	var ts tools.ToolsetSchema
	if err := strictjson.Decode(data, &ts); err != nil {
		return nil, fmt.Errorf("%w: toolset wire record: %w", ErrMalformed, atLine(data, err))
	}
	if len(ts.Tools) == 0 {
		return nil, fmt.Errorf("%w: toolset wire record %q: no tools", ErrMalformed, ts.Name)
	}
	docs := make([]toolsearch.Document, 0, len(ts.Tools))
	seen := make(map[string]int, len(ts.Tools))
	for i := range ts.Tools {
		where := fmt.Sprintf("toolset %q: tools[%d]", ts.Name, i)
		name := string(ts.Tools[i].Name)
		if err := checkName(&name, seen, i, func(j int) string { return fmt.Sprintf("tools[%d]", j) }); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMalformed, where, err)
		}
		doc, err := WireDocument(&ts.Tools[i])
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMalformed, where, err)
		}
		docs = append(docs, doc)
	}
	return docs, nil
}
