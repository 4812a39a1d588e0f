package codegen

// This file resolves an MCP gateway of the design (MCPGateway): for each
// toolset it uses, the runtime gateway's Upstream the design already knows
// (its name, how it is reached, the immediate tools, the declaration of a
// declared external toolset, the pinned version of a registry toolset), and
// the fields of the Servers struct the application fills at run time (Goa
// endpoints, transports, registry clients).

import (
	"path"
	"slices"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// gatewayIR is an MCP gateway and its generated package.
type gatewayIR struct {
	name, version, mode string
	pkg, importPath     string
	// upstreams are in the order of the gateway's uses.
	upstreams []*gatewayUpstream
	// fields are the fields of Servers, in first-use order.
	fields []*gatewayField
}

// gatewayUpstream is one toolset the gateway serves.
type gatewayUpstream struct {
	// toolset is the toolset's name in the runtime: the Upstream's Name
	// and the first part of its tools' model-facing names; for a whole
	// registry, the registry's name.
	toolset string
	field   *gatewayField
	// declared is the toolset package of a declared external toolset, nil
	// otherwise.
	declared *toolsetIR
	// immediate are the tools listed from the start, by the names the
	// server (or the declaration) gives them; immediateAll is set for a
	// dynamic toolset used without Deferred.
	immediate    []string
	immediateAll bool
	// version is the version a registry toolset must have; "" for none.
	version string
	// allToolsets is set for a whole registry: toolset is then the
	// registry's name.
	allToolsets bool
}

// gatewayField is one field of Servers: the Goa endpoints of a service
// (served in memory by its generated MCP server), the transport of an
// external MCP server or the client of a registry.
type gatewayField struct {
	name string
	// goa is the MCP server of the Goa service; nil for an external
	// server.
	goa *mcpServerIR
	// server is the external server's name; "" for a Goa service or a
	// registry.
	server string
	// registry is the registry's name; "" for an MCP server.
	registry string
	// whole is set when the gateway serves every toolset of the registry.
	whole bool
	// toolsets are the runtime names of the toolsets reached through the
	// field, in use order.
	toolsets []string
}

// buildGateway resolves gateway g; the maps give the IR of the toolsets its
// uses name.
func buildGateway(g *expr.MCPGatewayExpr, importPath string, byToolset map[*expr.ToolsetExpr]*toolsetIR,
	byServer map[*expr.ToolsetExpr]*mcpServerIR, byDynamic map[*expr.ToolsetExpr]*dynamicMCPIR) *gatewayIR {
	ir := &gatewayIR{name: g.Name, version: g.Version, mode: g.Mode(), pkg: packageName(g.Name, gonames.KindGateway)}
	ir.importPath = path.Join(importPath, expr.MCPGatewaysDir, ir.pkg)
	fields := map[string]*gatewayField{}
	field := func(name string, f *gatewayField) *gatewayField {
		if have := fields[name]; have != nil {
			return have
		}
		f.name = name
		fields[name] = f
		ir.fields = append(ir.fields, f)
		return f
	}
	for _, u := range g.Uses {
		ts := u.Toolset
		up := &gatewayUpstream{}
		switch {
		case u.Registry != nil:
			up.toolset, up.allToolsets = u.Registry.Name, true
			up.field = field(gonames.GatewayRegistryField(u.Registry.Name), &gatewayField{registry: u.Registry.Name, whole: true})
			up.immediateAll = !u.DeferAll()
		case byDynamic[ts] != nil:
			dyn := byDynamic[ts]
			up.toolset = dyn.toolset
			up.field = field(gonames.GatewayTransportField(dyn.server), &gatewayField{server: dyn.server})
			up.immediateAll = !u.DeferAll()
		case ts.IsRegistrySourced():
			src := ts.Source
			up.toolset, up.version = src.Toolset, ts.Version()
			up.field = field(gonames.GatewayRegistryField(src.Registry.Name), &gatewayField{registry: src.Registry.Name})
			up.immediateAll = !u.DeferAll()
		default:
			tir := byToolset[ts]
			up.toolset = tir.name
			if s := byServer[ts]; s != nil {
				up.field = field(gonames.GatewayEndpointsField(s.service), &gatewayField{goa: s})
			} else {
				up.declared = tir
				up.field = field(gonames.GatewayTransportField(ts.MCP.Server), &gatewayField{server: ts.MCP.Server})
			}
			deferred := u.DeferredTools()
			for _, t := range tir.tools {
				if !slices.Contains(deferred, t.expr) {
					up.immediate = append(up.immediate, t.name)
				}
			}
		}
		up.field.toolsets = append(up.field.toolsets, up.toolset)
		ir.upstreams = append(ir.upstreams, up)
	}
	return ir
}
