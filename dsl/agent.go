package dsl

import (
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
)

// Agent declares an agent inside a Goa Service. Its DSL declares the toolsets
// and registries the agent uses (Use) and the toolsets whose tools run it
// (Export); Goa's Meta may annotate it.
//
//	var _ = Service("assistant", func() {
//	    Agent("assistant", "Find and analyze records.", func() {
//	        Use(Records, func() { Deferred("search", "analyze") })
//	    })
//	})
func Agent(name, description string, fn func()) {
	at := expr.DesignLocation()
	svc, ok := eval.Current().(*goaexpr.ServiceExpr)
	if !ok {
		misuse("Agent %q must be declared in a Service", name)
		return
	}
	a := &expr.AgentExpr{Name: name, Description: description, Service: svc, DSLFunc: fn, At: at}
	expr.Root.Agents = append(expr.Root.Agents, a)
}

// Use makes a toolset, or every toolset of a registry, available to the
// current agent, or serves a toolset of an MCP server through the current
// MCPGateway. Its optional DSL may only hold Deferred, which chooses the
// tools that load through search instead of being declared up front.
//
//	Use(Records, func() { Deferred("search") })
//	Use(Company, func() { Deferred() })
func Use(value any, fn ...func()) {
	at := expr.DesignLocation()
	body := bodyOf("Use", fn)
	u := &expr.UseExpr{At: at}
	switch owner := eval.Current().(type) {
	case *expr.AgentExpr:
		u.Agent = owner
	case *expr.MCPGatewayExpr:
		u.Gateway = owner
	default:
		misuse("Use must appear in an Agent or an MCPGateway")
		return
	}
	switch v := value.(type) {
	case *expr.ToolsetExpr:
		u.Toolset = v
	case *expr.RegistryExpr:
		u.Registry = v
	default:
		misuse("Use cannot use %s: give a toolset (the value of a Toolset) or a registry (the value of a Registry)", describe(value))
		return
	}
	if u.Toolset == nil && u.Registry == nil {
		misuse("Use of %s", describe(value))
		return
	}
	if u.Agent != nil {
		u.Agent.Uses = append(u.Agent.Uses, u)
	} else {
		u.Gateway.Uses = append(u.Gateway.Uses, u)
	}
	eval.Execute(body, u)
}

// Export declares a toolset whose tools run the current agent (agent as
// tool); other agents Use it like any toolset. The value is a toolset
// declared with Toolset, or the name of a new toolset; the optional DSL
// declares tools of the exported toolset.
//
//	Export("planning", func() { Tool("plan", "Plan a multi-step task") })
//	Export(PlannerTools)
func Export(value any, fn ...func()) {
	at := expr.DesignLocation()
	body := bodyOf("Export", fn)
	a, ok := eval.Current().(*expr.AgentExpr)
	if !ok {
		misuse("Export must appear in an Agent")
		return
	}
	e := &expr.ExportExpr{Agent: a, At: at}
	switch v := value.(type) {
	case string:
		e.Toolset = &expr.ToolsetExpr{Name: v, At: at}
		expr.Root.Toolsets = append(expr.Root.Toolsets, e.Toolset)
	case *expr.ToolsetExpr:
		e.Toolset = v
	case *expr.RegistryExpr:
		e.Registry = v
	default:
		misuse("Export cannot use %s: give a toolset name or a toolset (the value of a Toolset)", describe(value))
		return
	}
	if e.Toolset == nil && e.Registry == nil {
		misuse("Export of %s", describe(value))
		return
	}
	a.Exports = append(a.Exports, e)
	eval.Execute(body, e)
}

// Deferred selects tools of the current Use that load through search instead
// of being declared in every request. Without names it selects every tool of
// the use; with names it selects those tools, by their authored local names.
// Several calls combine. Deferred belongs to the consuming Use only: a shared
// Toolset or an Export cannot decide it for its users.
func Deferred(names ...string) {
	at := expr.DesignLocation()
	u, ok := eval.Current().(*expr.UseExpr)
	if !ok {
		misuse("Deferred must appear in a Use: deferral is chosen by the agent that uses a toolset, not by a toolset, an export or an agent")
		return
	}
	u.Deferrals = append(u.Deferrals, &expr.Deferral{Names: names, At: at})
}
