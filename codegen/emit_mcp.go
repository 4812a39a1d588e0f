package codegen

// This file emits the registration of a toolset that an MCP server serves
// (FromExternalMCP with declared tools, FromMCP): the server's name and
// Register, which hands the toolset's schemas and codecs to runtime/mcp with
// the session that executes its tools. runtime/mcp checks the server's list
// against the declaration at registration.

import "github.com/dave/jennifer/jen"

// mcpRegisterFile emits Server and Register of an MCP toolset.
func mcpRegisterFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	f := g.file
	f.Add(docf("Server is the name of the MCP server that serves toolset %q: the name its session is connected under (mcp.Connect).", ts.name))
	f.Const().Id("Server").Op("=").Lit(ts.mcpServer)
	f.Add(doc("Register registers the toolset with rt, executed by session s of the MCP server: Toolset() as its schema and Specs() as its codecs. It reads the server's tool list and fails with an *mcp.MismatchError when a declared tool is missing or its schemas differ from the server's, and with an error when s is not a session of Server."))
	f.Func().Id("Register").Params(
		jen.Id("ctx").Qual(contextPkg, "Context"),
		jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime"),
		jen.Id("s").Op("*").Qual(mcpPkg, "Session"),
	).Error().Block(
		jen.If(jen.Id("s").Op("==").Nil()).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("register toolset %q: nil MCP session"), jen.Id("Name"))),
		),
		jen.If(jen.Id("s").Dot("Server").Call().Op("!=").Id("Server")).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("register toolset %q: session of MCP server %q, want %q"), jen.Id("Name"), jen.Id("s").Dot("Server").Call(), jen.Id("Server"))),
		),
		jen.Return(jen.Qual(mcpPkg, "RegisterToolset").Call(jen.Id("ctx"), jen.Id("rt"), jen.Id("s"), jen.Qual(mcpPkg, "DeclaredToolset").Add(keyed{
			jen.Id("Schema").Op(":").Id("Toolset").Call(),
			jen.Id("Specs").Op(":").Id("Specs").Call(),
		}.lines()))),
	)
	return g
}
