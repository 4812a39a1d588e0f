package expr

// This file holds the MCP gateway of a design (MCPGateway): an MCP server
// that serves toolsets of MCP servers, local (FromMCP) and external
// (FromExternalMCP, declared or dynamic), registry toolsets (FromRegistry)
// and whole registries through one search tool. It Uses
// its toolsets like an agent, with the same Deferred rules: a deferred tool
// is listed only once a session found it; every other tool is listed from
// the start.

import (
	"fmt"
	"slices"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// Gateway modes: how a session reaches the tools it found (the runtime's
// gateway.Mode values).
const (
	// GatewayModeList adds found tools to the session's tools/list.
	GatewayModeList = "list"
	// GatewayModeCall calls found tools through the call_tool meta-tool
	// and never changes the session's tools/list.
	GatewayModeCall = "call"
	// GatewayModeBoth does both.
	GatewayModeBoth = "both"
)

// MCPGatewayExpr is an MCP gateway declared with MCPGateway.
type MCPGatewayExpr struct {
	eval.DSLFunc
	strayVersion
	// Name is the gateway's name: its package's and the server name in the
	// MCP handshake.
	Name string
	// Version is the server version in the MCP handshake.
	Version string
	// Uses are the toolsets the gateway serves, in declaration order.
	Uses []*UseExpr
	// Modes are the GatewayMode declarations, in declaration order; the
	// first sets the mode, a later one is rejected.
	Modes []ModeDecl
	// At is where MCPGateway was called.
	At Location
}

// ModeDecl is one GatewayMode call.
type ModeDecl struct {
	// Mode is the mode given.
	Mode string
	// At is where GatewayMode was called.
	At Location
}

// EvalName returns the gateway's name for error messages.
func (g *MCPGatewayExpr) EvalName() string { return fmt.Sprintf("MCP gateway %q", g.Name) }

// Mode returns the gateway's mode, GatewayModeList when the design sets
// none.
func (g *MCPGatewayExpr) Mode() string {
	if len(g.Modes) == 0 {
		return GatewayModeList
	}
	return g.Modes[0].Mode
}

// GatewayModes lists the modes, the default first.
func GatewayModes() []string { return []string{GatewayModeList, GatewayModeCall, GatewayModeBoth} }

// validateGateways checks every gateway and that their names are unique.
func (r *RootExpr) validateGateways(p *problems) {
	seen := map[string]*MCPGatewayExpr{}
	pkgs := &packageClaims{kind: gonames.KindGateway, first: map[string]packageOwner{}}
	for _, g := range r.MCPGateways {
		pkgs.claim(p, g.Name, g, g.At)
		if first, dup := seen[g.Name]; dup {
			p.add(g, g.At, "duplicate MCP gateway %q (first declared at %s)", g.Name, first.At)
		} else {
			seen[g.Name] = g
		}
		g.validate(p)
	}
}

// validate checks the gateway's name, mode and uses.
func (g *MCPGatewayExpr) validate(p *problems) {
	if err := CheckName(g.Name); err != nil {
		p.add(g, g.At, "MCP gateway name: %v", err)
	}
	if g.Version == "" {
		p.add(g, g.At, "empty version: the MCP handshake sends it")
	}
	g.strayVersion.validate(p, g)
	for i, m := range g.Modes {
		if i > 0 {
			p.add(g, m.At, "GatewayMode(%q) repeats GatewayMode(%q) at %s: a gateway has one mode", m.Mode, g.Modes[0].Mode, g.Modes[0].At)
			continue
		}
		if !slices.Contains(GatewayModes(), m.Mode) {
			p.add(g, m.At, "GatewayMode(%q): want one of %q", m.Mode, GatewayModes())
		}
	}
	if len(g.Uses) == 0 {
		p.add(g, g.At, "MCP gateway %q uses no toolset: give its DSL a Use of a toolset of an MCP server", g.Name)
	}
	used := map[*ToolsetExpr]*UseExpr{}
	whole := map[*RegistryExpr]*UseExpr{} // registries served as a whole
	fields := map[string]string{}         // Go field of Servers: what it reaches
	upstreams := map[string]*UseExpr{}    // the runtime's upstream names
	for _, u := range g.Uses {
		switch {
		case u.Registry != nil:
			if first, dup := whole[u.Registry]; dup {
				p.add(u, u.At, "registry %q is already used by this MCP gateway (at %s)", u.Registry.Name, first.At)
				continue
			}
			whole[u.Registry] = u
		case u.Toolset.Source == nil && u.Toolset.MCP == nil:
			p.add(u, u.At, "MCP gateway %q cannot serve toolset %q: it has no MCP server; declare its tools as methods of a Goa service with MCPServer and use Toolset(FromMCP(service, toolset))", g.Name, u.Toolset.Name)
			continue
		default:
			if first, dup := used[u.Toolset]; dup {
				p.add(u, u.At, "toolset %q is already used by this MCP gateway (at %s)", u.Toolset.Name, first.At)
				continue
			}
			used[u.Toolset] = u
		}
		name, field, reaches := g.upstream(u)
		if first, dup := upstreams[name]; dup && name != "" {
			p.add(u, u.At, "%s and %s are both upstream %q of this MCP gateway (the first at %s): an upstream's name is its toolset's, or its registry's when served whole, and is given once", first.sourceName(), u.sourceName(), name, first.At)
		} else {
			upstreams[name] = u
		}
		if first, ok := fields[field]; ok && first != reaches {
			p.add(u, u.At, "%s and %s both give the gateway's Servers field %s: rename one", first, reaches, field)
		}
		fields[field] = reaches
		u.validate(p)
	}
	for _, u := range g.Uses {
		if u.Toolset == nil || u.Toolset.Source == nil {
			continue
		}
		if w := whole[u.Toolset.Source.Registry]; w != nil {
			p.add(u, u.At, "registry %q is served as a whole by this MCP gateway (at %s), toolset %q included: its tools would be served twice", w.Registry.Name, w.At, u.Toolset.Source.Toolset)
		}
	}
	validateUsesModelNames(p, g.Uses)
}

// upstream returns the runtime's name of the upstream a use serves (the
// toolset's, or the registry's for a whole registry), the field of Servers
// that reaches it and what that field reaches.
func (g *MCPGatewayExpr) upstream(u *UseExpr) (name, field, reaches string) {
	if u.Registry != nil {
		return u.Registry.Name, gonames.GatewayRegistryField(u.Registry.Name), fmt.Sprintf("registry %q", u.Registry.Name)
	}
	ts := u.Toolset
	switch {
	case ts.Source != nil:
		if ts.Source.Registry == nil {
			return ts.Source.Toolset, "", "" // reported by the toolset
		}
		r := ts.Source.Registry.Name
		return ts.Source.Toolset, gonames.GatewayRegistryField(r), fmt.Sprintf("registry %q", r)
	case ts.MCP.IsGoa():
		return ts.Name, gonames.GatewayEndpointsField(ts.MCP.Service), fmt.Sprintf("Goa service %q", ts.MCP.Service)
	}
	return ts.Name, gonames.GatewayTransportField(ts.MCP.Server), fmt.Sprintf("MCP server %q", ts.MCP.Server)
}

// finalize resolves the deferred tools of the gateway's uses.
func (g *MCPGatewayExpr) finalize() {
	for _, u := range g.Uses {
		u.finalize()
	}
}
