package codegen

// This file emits the registration of a toolset that an MCP server serves:
// for a toolset with tools (FromExternalMCP with declared tools, FromMCP),
// the server's name and Register, which hands the toolset's schemas and
// codecs to runtime/mcp with the session that executes its tools
// (runtime/mcp checks the server's list against the declaration at
// registration); for a dynamic toolset (FromExternalMCP without tools), a
// package of its own with the toolset's and the server's names and
// Register, which registers the server's list as a source.

import (
	"path"

	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// mcpRegisterFile emits Server and Register of an MCP toolset.
func mcpRegisterFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	f := g.file
	f.Add(serverConst(ts.name, ts.mcpServer))
	f.Add(docf("%s registers the toolset with rt, executed by session s of the MCP server: Toolset() as its schema and Specs() as its codecs. It reads the server's tool list and fails with an *mcp.MismatchError when a declared tool is missing or its schemas differ from the server's, and with an *mcp.ServerError when s is not a session of %s.", gonames.RegisterFunc, gonames.ServerConst))
	f.Func().Id(gonames.RegisterFunc).Params(registerParams()...).Error().Block(
		jen.If(checkServer()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Qual(mcpPkg, "RegisterToolset").Call(jen.Id("ctx"), jen.Id("rt"), jen.Id("s"), jen.Qual(mcpPkg, "DeclaredToolset").Add(keyed{
			jen.Id("Schema").Op(":").Id("Toolset").Call(),
			jen.Id("Specs").Op(":").Id("Specs").Call(),
		}.lines()))),
	)
	return g
}

// dynamicMCPFiles returns the files of the package of a dynamic MCP
// toolset.
func dynamicMCPFiles(d *dynamicMCPIR) []*genFile {
	dir := path.Join(toolsetsDir, d.pkg)
	pkgDoc := docFile(dir, d.pkg, packageComment(
		"Package "+d.pkg+" names the dynamic MCP toolset \""+d.toolset+"\": the tools that MCP server \""+d.server+"\" lists at run time.",
		gonames.RegisterFunc+" registers the toolset with a runtime as a source, executed by a session of the server (mcp.RegisterSource), and agents name it runtime.MCPToolset{Server: "+gonames.ServerConst+", Toolset: "+gonames.ToolsetNameConst+"}; its Register has the signature of a declared MCP toolset's. The design declares no tools, so the package holds no typed tools, schemas, search counts or fingerprints: none are known when the code is generated, and the runtime reads the server's list once per planning step.",
	))
	main := newFile(path.Join(dir, "toolset.go"), d.pkg)
	main.file.Add(docf("%s is the name of the dynamic toolset %q in the runtime.", gonames.ToolsetNameConst, d.toolset))
	main.file.Const().Id(gonames.ToolsetNameConst).Op("=").Lit(d.toolset)
	reg := newFile(path.Join(dir, "register.go"), d.pkg)
	f := reg.file
	f.Add(serverConst(d.toolset, d.server))
	f.Add(docf("%s registers the toolset with rt as the source of the tools that session s of the MCP server lists, under the server's name (mcp.RegisterSource); agents name it with runtime.MCPToolset. It fails with an *mcp.ServerError when s is not a session of %s. ctx is unused: the list is read when an agent plans, not here.", gonames.RegisterFunc, gonames.ServerConst))
	f.Func().Id(gonames.RegisterFunc).Params(registerParams()...).Error().Block(
		jen.If(checkServer()).Block(jen.Return(jen.Err())),
		jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(mcpPkg, "RegisterSource").Call(jen.Id("rt"), jen.Id("s"), jen.Id(gonames.ToolsetNameConst)),
		jen.Return(jen.Err()),
	)
	return []*genFile{pkgDoc, main, reg}
}

// serverConst emits the constant of the name of toolset's MCP server.
func serverConst(toolset, server string) jen.Code {
	return jen.Add(docf("%s is the name of the MCP server that serves toolset %q: the name its session is connected under (mcp.Connect).", gonames.ServerConst, toolset)).
		Line().Const().Id(gonames.ServerConst).Op("=").Lit(server)
}

// registerParams are the parameters of Register of an MCP toolset.
func registerParams() []jen.Code {
	return []jen.Code{
		jen.Id("ctx").Qual(contextPkg, "Context"),
		jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime"),
		jen.Id("s").Op("*").Qual(mcpPkg, "Session"),
	}
}

// checkServer emits the statement that refuses a session of another server
// than the design's.
func checkServer() jen.Code {
	return jen.Err().Op(":=").Qual(mcpPkg, "CheckServer").Call(jen.Id("s"), jen.Id(gonames.ToolsetNameConst), jen.Id(gonames.ServerConst)).Op(";").Err().Op("!=").Nil()
}
