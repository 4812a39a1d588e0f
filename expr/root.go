package expr

import (
	"goa.design/goa/v3/eval"
	goaexpr "goa.design/goa/v3/expr"
)

// Root is the root of the goa-discovery design, registered with Goa's eval
// engine when this package is loaded.
var Root = NewRoot()

func init() {
	if err := eval.Register(Root); err != nil {
		panic(err) // bug: the root is registered once, here
	}
}

// RootExpr holds every registry, toolset and agent of a design, and the DSL
// misuses found while the design ran.
type RootExpr struct {
	// Registries lists the declared tool registries in declaration order.
	Registries []*RegistryExpr
	// Toolsets lists the top-level toolsets (local and registry-sourced) and
	// the toolsets that agents export by name, in declaration order.
	Toolsets []*ToolsetExpr
	// Agents lists the agents of all services in declaration order.
	Agents []*AgentExpr
	// MCPServers lists the MCP servers that Goa services declare, in
	// declaration order.
	MCPServers []*MCPServerExpr
	// MCPGateways lists the MCP gateways in declaration order.
	MCPGateways []*MCPGatewayExpr
	// MCPTools lists the Goa methods marked as MCP tools, in declaration
	// order; Prepare attaches them to their services' servers.
	MCPTools []*MCPToolExpr
	// Misuses lists the DSL functions called where they do not belong or
	// with arguments they do not accept. They are reported with every other
	// validation error so that one run shows all the errors of a design.
	Misuses []*Misuse

	// orphanMCPTools are the method tools of services without an MCP server.
	orphanMCPTools []*MCPToolExpr
}

// Misuse is a DSL function called in the wrong place or with bad arguments.
type Misuse struct {
	// Context is the expression whose DSL made the call (eval.Top at top
	// level).
	Context eval.Expression
	// At is the design location of the call.
	At Location
	// Err says what is wrong.
	Err error
}

// NewRoot returns an empty root. Tests that run designs in a clean eval
// context register a fresh one.
func NewRoot() *RootExpr { return &RootExpr{} }

// RecordMisuse records a DSL misuse made from context ctx at design location
// at.
func (r *RootExpr) RecordMisuse(ctx eval.Expression, at Location, err error) {
	r.Misuses = append(r.Misuses, &Misuse{Context: ctx, At: at, Err: err})
}

// EvalName is the name of the root for the eval engine.
func (*RootExpr) EvalName() string { return "goa-discovery design" }

// DependsOn makes Goa's roots run first: agents are declared inside Goa
// services and tool arguments may use Goa user and result types.
func (*RootExpr) DependsOn() []eval.Root {
	return []eval.Root{goaexpr.Root, goaexpr.GeneratedResultTypes}
}

// Packages lists the packages whose frames never locate a design error.
func (*RootExpr) Packages() []string { return []string{ExprPackage, DSLPackage} }

// WalkSets gives the eval engine the registries, then the toolsets, then the
// agents, then the MCP gateways: toolset, agent and gateway DSLs may
// reference registries and toolsets, and agent DSLs add exported toolsets
// and tools. Tools, uses and exports run
// their DSL when they are declared, so they carry no DSL of their own here.
func (r *RootExpr) WalkSets(walk eval.SetWalker) {
	walk(eval.ToExpressionSet(r.Registries))
	walk(eval.ToExpressionSet(r.Toolsets))
	walk(eval.ToExpressionSet(r.Agents))
	walk(eval.ToExpressionSet(r.MCPGateways))
}

// Prepare builds the tools of the toolsets that Goa services serve over MCP
// and links each toolset to the agent that exports it, so that
// validation judges Deferred selections against the complete design
// whatever order its DSL ran in.
func (r *RootExpr) Prepare() {
	r.prepareMCP()
	for _, a := range r.Agents {
		for _, e := range a.Exports {
			if e.Toolset != nil && e.Toolset.ExportedBy == nil {
				e.Toolset.ExportedBy = a
			}
		}
	}
}

// Validate checks the whole design and returns every error at once, as
// *eval.ValidationErrors ordered by design location.
func (r *RootExpr) Validate() error {
	if len(eval.Context.Errors) == 0 {
		// Goa finalizes only what its validation accepted (finalizing a
		// result type with an unknown view panics), so tool types are
		// judged as declared when Goa's roots already failed.
		r.finalizeToolTypes()
	}
	var p problems
	for _, m := range r.Misuses {
		p.add(m.Context, m.At, "%w", m.Err)
	}
	r.validateUniqueNames(&p)
	r.validateGoPackages(&p)
	r.validateGoaServiceDirs(&p)
	r.validateMCP(&p)
	r.validateMCPServerNames(&p)
	for _, reg := range r.Registries {
		reg.validate(&p)
	}
	for _, ts := range r.Toolsets {
		ts.validate(&p)
	}
	for _, a := range r.Agents {
		a.validate(&p)
	}
	r.validateGateways(&p)
	r.validateExportCycles(&p)
	return p.err()
}

// Finalize resolves the deferred tools of every use.
func (r *RootExpr) Finalize() {
	r.finalizeToolTypes()
	for _, a := range r.Agents {
		for _, u := range a.Uses {
			u.finalize()
		}
	}
	for _, g := range r.MCPGateways {
		g.finalize()
	}
}

// finalizeToolTypes finalizes the argument and result attributes of every
// tool, so that the attributes of the types they Extend or Reference are
// merged in. Validate does it first, once Goa's own roots (which this one
// depends on) have validated, so that it judges the attributes code
// generation reads; Finalize again for a root that was not validated.
// Finalizing an attribute twice does nothing.
func (r *RootExpr) finalizeToolTypes() {
	for _, ts := range r.Toolsets {
		for _, t := range ts.Tools {
			for _, att := range []*goaexpr.AttributeExpr{t.Args, t.Return} {
				if att != nil {
					att.Finalize()
				}
			}
		}
	}
}
