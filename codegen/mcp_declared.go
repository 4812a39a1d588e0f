package codegen

// The declared MCP toolsets of the evaluated design, as goa-discovery mcp
// diff reads them from the generator program: the same schemas the
// generated toolset packages return from Toolset(), built by the same IR,
// so that the diff compares what Register would.

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// DeclaredMCPToolset is a toolset whose tools the design declares for an
// external MCP server (FromExternalMCP with tools).
type DeclaredMCPToolset struct {
	// Server is the name the design gives the server.
	Server string `json:"server"`
	// Toolset is the toolset's authored registration, what its generated
	// Toolset() returns.
	Toolset tools.ToolsetSchema `json:"toolset"`
	// At is where the toolset is declared.
	At string `json:"at"`
}

// DeclaredMCPToolsets returns the declared MCP toolsets of the evaluated
// design, sorted by toolset name. Like Generate, it runs after
// eval.RunDSL returned nil.
func DeclaredMCPToolsets() ([]DeclaredMCPToolset, error) {
	if eval.Context.Errors != nil {
		return nil, fmt.Errorf("declared MCP toolsets: %w: %w", ErrNotEvaluated, eval.Context.Errors)
	}
	if expr.Root == nil {
		return nil, fmt.Errorf("declared MCP toolsets: %w: no goa-discovery root registered", ErrNotEvaluated)
	}
	var declared []*expr.ToolsetExpr
	for _, ts := range expr.Root.Toolsets {
		if ts.IsMCP() && !ts.MCP.IsGoa() && !ts.IsDynamic() {
			declared = append(declared, ts)
		}
	}
	// The import path only names packages, which the schemas do not hold.
	built := buildToolsets(declared, "declared.invalid")
	out := make([]DeclaredMCPToolset, 0, len(declared))
	for i, ts := range declared {
		if built[i].err != nil {
			return nil, fmt.Errorf("declared MCP toolsets: %w", built[i].err)
		}
		ir := built[i].ir
		out = append(out, DeclaredMCPToolset{
			Server: ts.MCP.Server,
			Toolset: tools.ToolsetSchema{
				Name: ir.name, Title: ir.title, Description: ir.description, Tags: ir.tags, Tools: ir.toolSchemas(),
			},
			At: ts.At.String(),
		})
	}
	slices.SortFunc(out, func(a, b DeclaredMCPToolset) int { return strings.Compare(a.Toolset.Name, b.Toolset.Name) })
	return out, nil
}

// WriteDeclaredMCPToolsets writes DeclaredMCPToolsets to w as JSON.
func WriteDeclaredMCPToolsets(w io.Writer) error {
	d, err := DeclaredMCPToolsets()
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(d)
}
