package codegen

// The catalogs that the agents' search tools see, as goa-discovery search
// --design reads them from the generator program: each agent's deferred
// tools as the wire records their generated toolset packages return, in the
// order of the agent's generated DeferredTools and search index, built by
// the same IR, and the sources that the runtime reads at run time.

import (
	"encoding/json"
	"fmt"
	"io"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// AgentCatalog is what an agent's search tool searches, as far as the
// design knows it.
type AgentCatalog struct {
	// Agent is the agent's name, Service the Goa service that declares it.
	Agent   string `json:"agent"`
	Service string `json:"service"`
	// At is where the agent is declared.
	At string `json:"at"`
	// Deferred are the wire records of the agent's deferred tools, local
	// and declared MCP, in the order of the generated DeferredTools: the
	// tools of the generated search index.
	Deferred []tools.ToolSchema `json:"deferred"`
	// Immediate are the identifiers of the tools every request declares;
	// search never returns them.
	Immediate []tools.Ident `json:"immediate"`
	// Sources are the registry sources and dynamic MCP toolsets of the
	// agent, whose tools the runtime reads at run time, in use order.
	Sources []CatalogSource `json:"sources"`
}

// CatalogSource is a source of tools that only the run time knows: a
// registry (a toolset of it, or all of it) or an MCP toolset whose tools
// its server lists.
type CatalogSource struct {
	// Registry names the registry; empty for an MCP toolset.
	Registry string `json:"registry,omitempty"`
	// MCPServer names the MCP server; empty for a registry source.
	MCPServer string `json:"mcp_server,omitempty"`
	// Toolset is the toolset's name; empty for a whole registry.
	Toolset string `json:"toolset,omitempty"`
	// Version is the pinned version, if any.
	Version string `json:"version,omitempty"`
	// Deferred says whether the source's tools load through search.
	Deferred bool `json:"deferred"`
}

// AgentCatalogs returns the catalog of every agent of the evaluated
// design, sorted by agent name. Like Generate, it runs after eval.RunDSL
// returned nil.
func AgentCatalogs() ([]AgentCatalog, error) {
	if eval.Context.Errors != nil {
		return nil, fmt.Errorf("agent catalogs: %w: %w", ErrNotEvaluated, eval.Context.Errors)
	}
	if expr.Root == nil {
		return nil, fmt.Errorf("agent catalogs: %w: no goa-discovery root registered", ErrNotEvaluated)
	}
	// The import path only names packages, which the records do not hold.
	d, err := buildIR(expr.Root, "catalog.invalid")
	if err != nil {
		return nil, fmt.Errorf("agent catalogs: %w", err)
	}
	out := make([]AgentCatalog, 0, len(d.agents))
	for _, a := range d.agents {
		c := AgentCatalog{
			Agent: a.name, Service: a.service, At: a.expr.At.String(),
			Deferred:  make([]tools.ToolSchema, len(a.deferred)),
			Immediate: make([]tools.Ident, len(a.immediate)),
			Sources:   make([]CatalogSource, len(a.sources)),
		}
		for i, t := range a.deferred {
			c.Deferred[i] = t.schema()
		}
		for i, t := range a.immediate {
			c.Immediate[i] = t.ident
		}
		for i, s := range a.sources {
			src := CatalogSource{Toolset: s.toolset, Version: s.version, Deferred: s.deferred}
			if s.dynamic != nil {
				src.MCPServer = s.dynamic.server
			} else {
				src.Registry = s.registry.name
			}
			c.Sources[i] = src
		}
		out = append(out, c)
	}
	return out, nil
}

// WriteAgentCatalogs writes AgentCatalogs to w as JSON.
func WriteAgentCatalogs(w io.Writer) error {
	c, err := AgentCatalogs()
	if err != nil {
		return err
	}
	return json.NewEncoder(w).Encode(c)
}
