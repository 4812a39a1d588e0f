package codegen

// This file emits the package of an MCP gateway (MCPGateway): the
// design's Upstreams of the runtime's gateway (runtime/mcp/gateway) and New,
// which builds the gateway in the design's mode. Everything the design
// knows is in the code (names, immediate tools, declarations, the mode);
// what it cannot know (the Goa endpoints of the services, the transports of
// external servers and the clients of registries) is the Servers the
// application gives.
// Serving discovery is the runtime gateway's, the same code as
// goa-discovery mcp gateway's.

import (
	"fmt"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/expr"
)

// gatewayPkg is the import path of the runtime's gateway.
const gatewayPkg = "github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"

// gatewayModes maps a design mode to the runtime's constant.
var gatewayModes = map[string]string{
	expr.GatewayModeList: "ModeList",
	expr.GatewayModeCall: "ModeCall",
	expr.GatewayModeBoth: "ModeBoth",
}

// gatewayFiles emits the package of an MCP gateway.
func gatewayFiles(g *gatewayIR) []*genFile {
	dir := path.Join(expr.MCPGatewaysDir, g.pkg)
	toolsets := make([]string, len(g.upstreams))
	for i, u := range g.upstreams {
		toolsets[i] = fmt.Sprintf("%q", u.toolset)
		if u.allToolsets {
			toolsets[i] = fmt.Sprintf("every toolset of registry %q", u.toolset)
		}
	}
	return []*genFile{
		docFile(dir, g.pkg, packageComment(
			"Package "+g.pkg+" is the MCP gateway \""+g.name+"\" of the design: one MCP server that serves the toolsets "+strings.Join(toolsets, ", ")+" through search, with the runtime's gateway (runtime/mcp/gateway).",
			"A session lists the tools the design does not defer and tool_search; a search answers with the matching tools and, in mode \"list\" or \"both\", adds them to the session's tools/list (notifications/tools/list_changed); in mode \"call\" or \"both\" the session also lists call_tool. Calls are validated against the tools' input schemas, then forwarded to the server or registry of the tool.",
			"New builds the gateway from Servers, the Goa endpoints, transports and registry clients the application gives; serve it with its NewServer (one client, for example over stdio) or Handler (streamable HTTP).",
		)),
		gatewayFile(g, path.Join(dir, "gateway.go")),
	}
}

// gatewayFile emits the constants, Servers, Upstreams and New.
func gatewayFile(g *gatewayIR, p string) *genFile {
	gf := newFile(p, g.pkg)
	f := gf.file
	f.ImportAlias(sdkPkg, "sdk")
	f.Const().Defs(
		doc("Name is the gateway's name in the MCP handshake."),
		jen.Id("Name").Op("=").Lit(g.name),
		doc("Version is the gateway's version in the MCP handshake."),
		jen.Id("Version").Op("=").Lit(g.version),
		docf("Mode is how a session reaches the tools it found, as the design chooses (%q).", g.mode),
		jen.Id("Mode").Op("=").Qual(gatewayPkg, gatewayModes[g.mode]),
	)
	f.Add(doc("Servers reach the servers of the gateway's toolsets. Every field must be set."))
	f.Type().Id("Servers").StructFunc(func(s *jen.Group) {
		for _, fd := range g.fields {
			quoted := make([]string, len(fd.toolsets))
			for i, t := range fd.toolsets {
				quoted[i] = fmt.Sprintf("%q", t)
			}
			if fd.goa != nil {
				s.Add(docf("%s are the Goa endpoints of service %q, served in memory by its generated MCP server (toolset %s).", fd.name, fd.goa.service, strings.Join(quoted, ", ")))
				s.Id(fd.name).Op("*").Qual(fd.goa.goaPath, "Endpoints")
				continue
			}
			if fd.registry != "" {
				what := "toolset " + strings.Join(quoted, ", ")
				if fd.whole {
					what = "every toolset it holds"
				}
				s.Add(docf("%s reads and calls registry %q (%s): the runtime's registry client, for example runtimeclient.NewHTTP of the registry's URL (runtime/registry/runtimeclient).", fd.name, fd.registry, what))
				s.Id(fd.name).Qual(runtimePkg, "RegistryClient")
				continue
			}
			s.Add(docf("%s reaches the external MCP server %q (toolset %s).", fd.name, fd.server, strings.Join(quoted, ", ")))
			s.Id(fd.name).Qual(mcpPkg, "Transport")
		}
	})
	f.Add(doc("Upstreams returns the gateway's toolsets as the runtime gateway's upstreams, in the design's order. It fails when a field of s is not set."))
	f.Func().Id("Upstreams").Params(jen.Id("s").Id("Servers")).Params(jen.Index().Qual(gatewayPkg, "Upstream"), jen.Error()).BlockFunc(func(b *jen.Group) {
		for _, fd := range g.fields {
			what := fmt.Sprintf("the transport of MCP server %q", fd.server)
			switch {
			case fd.goa != nil:
				what = fmt.Sprintf("the Goa endpoints of service %q", fd.goa.service)
			case fd.registry != "":
				what = fmt.Sprintf("the client of registry %q", fd.registry)
			}
			b.If(jen.Id("s").Dot(fd.name).Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(
				jen.Lit(fmt.Sprintf("MCP gateway %q: Servers.%s is nil: give %s", g.name, fd.name, what)))))
		}
		for _, u := range g.upstreams {
			if u.declared != nil {
				b.Id(lowerGoName(u.toolset)+"Declared").Op(":=").Qual(u.declared.importPath, "Toolset").Call()
			}
		}
		items := make([]jen.Code, len(g.upstreams))
		for i, u := range g.upstreams {
			var k keyed
			k.set("Name", jen.Lit(u.toolset))
			if u.field.registry != "" {
				k.set("Registry", jen.Id("s").Dot(u.field.name))
				if u.allToolsets {
					k.set("AllToolsets", jen.True())
				}
				if u.version != "" {
					k.set("Version", jen.Lit(u.version))
				}
				if u.immediateAll {
					k.set("ImmediateAll", jen.True())
				}
				items[i] = k.lines()
				continue
			}
			transport := jen.Id("s").Dot(u.field.name)
			if u.field.goa != nil {
				transport = jen.Qual(mcpPkg, "InMemory").Call(jen.Qual(u.field.goa.importPath, "NewServer").Call(jen.Id("s").Dot(u.field.name)))
			}
			k.set("Transport", transport)
			if len(u.immediate) > 0 {
				k.set("Immediate", stringsLit(u.immediate))
			}
			if u.immediateAll {
				k.set("ImmediateAll", jen.True())
			}
			if u.declared != nil {
				k.set("Declared", jen.Op("&").Id(lowerGoName(u.toolset)+"Declared"))
			}
			items[i] = k.lines()
		}
		b.Return(jen.Index().Qual(gatewayPkg, "Upstream").Custom(multiLine, items...), jen.Nil())
	})
	f.Add(doc("New returns the gateway of the design's toolsets, reached through s, in mode Mode: opts.Mode must be empty or Mode. A nil opts.Implementation names the gateway Name at Version to its clients. It starts no server: each starts at its first use."))
	f.Func().Id("New").Params(jen.Id("s").Id("Servers"), jen.Id("opts").Qual(gatewayPkg, "Options")).Params(jen.Op("*").Qual(gatewayPkg, "Gateway"), jen.Error()).Block(
		jen.List(jen.Id("ups"), jen.Err()).Op(":=").Id("Upstreams").Call(jen.Id("s")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.If(jen.Id("opts").Dot("Mode").Op("!=").Lit("").Op("&&").Id("opts").Dot("Mode").Op("!=").Id("Mode")).Block(
			jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit(fmt.Sprintf("MCP gateway %q: mode %%q: the design's mode is %%q", g.name)), jen.Id("opts").Dot("Mode"), jen.Id("Mode"))),
		),
		jen.Id("opts").Dot("Mode").Op("=").Id("Mode"),
		jen.If(jen.Id("opts").Dot("Implementation").Op("==").Nil()).Block(
			jen.Id("opts").Dot("Implementation").Op("=").Op("&").Qual(sdkPkg, "Implementation").Values(jen.Dict{jen.Id("Name"): jen.Id("Name"), jen.Id("Version"): jen.Id("Version")}),
		),
		jen.Return(jen.Qual(gatewayPkg, "New").Call(jen.Id("ups"), jen.Id("opts"))),
	)
	return gf
}
