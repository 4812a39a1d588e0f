package dsl

import (
	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

// MCPGateway declares an MCP server named name at version version that
// serves toolsets through search: the toolsets of Goa services of the
// design (FromMCP), of external MCP servers (FromExternalMCP, declared or
// dynamic) and of registries (FromRegistry; a whole registry is not
// served). Its DSL Uses them with the same Deferred rules as
// an agent: a session lists every tool that is not deferred, plus the
// search tool tool_search; a tool a search finds joins that session's list
// (or, with GatewayMode("call"), is called through call_tool). The
// generated package builds the runtime's gateway (runtime/mcp/gateway) of
// these toolsets.
//
//	var _ = MCPGateway("hub", "1.0.0", func() {
//	    Use(Catalog, func() { Deferred("find_products") })
//	    Use(Everything, func() { Deferred() })
//	    GatewayMode("both")
//	})
func MCPGateway(name, version string, fn func()) *expr.MCPGatewayExpr {
	at := expr.DesignLocation()
	if _, ok := eval.Current().(eval.TopExpr); !ok {
		misuse("MCPGateway %q must be declared at the top level of the design", name)
		return nil
	}
	g := &expr.MCPGatewayExpr{Name: name, Version: version, DSLFunc: fn, At: at}
	expr.Root.MCPGateways = append(expr.Root.MCPGateways, g)
	return g
}

// GatewayMode chooses how the sessions of the current MCPGateway reach the
// tools they found: "list" (the default) adds them to the session's
// tools/list and sends notifications/tools/list_changed; "call" keeps the
// list fixed and lists call_tool, which calls a found tool by name and
// arguments, so that a host's prompt cache over its tool declarations
// stays valid; "both" does both.
func GatewayMode(mode string) {
	at := expr.DesignLocation()
	g, ok := eval.Current().(*expr.MCPGatewayExpr)
	if !ok {
		misuse("GatewayMode must appear in an MCPGateway")
		return
	}
	g.Modes = append(g.Modes, expr.ModeDecl{Mode: mode, At: at})
}
