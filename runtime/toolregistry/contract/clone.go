package contract

import (
	"bytes"
	"maps"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// CloneToolset returns a deep copy of a toolset record, so that a record
// handed to another owner (a registry's consumer, a saved call) never
// shares memory with the one kept.
func CloneToolset(ts *tools.ToolsetSchema) tools.ToolsetSchema {
	out := *ts
	out.Tags = slices.Clone(ts.Tags)
	if ts.Tools != nil {
		out.Tools = make([]tools.ToolSchema, len(ts.Tools))
		for i := range ts.Tools {
			out.Tools[i] = CloneTool(&ts.Tools[i])
		}
	}
	return out
}

// CloneTool returns a deep copy of a tool record.
func CloneTool(t *tools.ToolSchema) tools.ToolSchema {
	out := *t
	out.Tags = slices.Clone(t.Tags)
	out.Payload = bytes.Clone(t.Payload)
	out.Result = bytes.Clone(t.Result)
	out.Contract = cloneContract(t.Contract)
	return out
}

// cloneContract returns a deep copy of a consumer contract.
func cloneContract(c *tools.Contract) *tools.Contract {
	if c == nil {
		return nil
	}
	out := *c
	out.SearchTerms = slices.Clone(c.SearchTerms)
	out.Fields = slices.Clone(c.Fields)
	out.ServerOnlyFields = slices.Clone(c.ServerOnlyFields)
	out.RequiredLabels = maps.Clone(c.RequiredLabels)
	if c.Confirmation != nil {
		conf := *c.Confirmation
		out.Confirmation = &conf
	}
	return &out
}
