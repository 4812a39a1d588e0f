package codegen

// This file emits the MCP server of a Goa service (FromMCP): an SDK server
// whose tools are the service's methods marked with Tool, each decoding and
// validating its arguments with the toolset package's codec, converting them
// to Goa's payload, calling the service's Goa endpoint and converting its
// result back, encoded and validated by the toolset's result codec. It
// lists each tool with the toolset's schemas, their dialect named
// (tools.WithDialect: "$schema" of JSON Schema 2020-12). The
// server runs over stdio (ServeStdio) and streamable HTTP (NewHTTPHandler),
// next to Goa's own transports for the same endpoints.

import (
	"path"

	"github.com/dave/jennifer/jen"
)

// Import paths of the server's dependencies.
const (
	sdkPkg  = "github.com/modelcontextprotocol/go-sdk/mcp"
	httpPkg = "net/http"
)

// mcpServerFiles emits the package of an MCP server.
func mcpServerFiles(s *mcpServerIR) []*genFile {
	dir := path.Join(mcpServersDir, s.pkg)
	return []*genFile{
		docFile(dir, s.pkg, packageComment(
			"Package "+s.pkg+" serves the methods of Goa service \""+s.service+"\" marked as tools over MCP, as the tools of toolset \""+s.toolset.name+"\", by calling the service's Goa endpoints.",
			"NewServer returns the SDK server; ServeStdio runs it over stdio and NewHTTPHandler serves it over streamable HTTP. It needs Goa's generated service package, which \"goa gen\" writes next to it.",
		)),
		mcpServerFile(s, path.Join(dir, "server.go")),
	}
}

// mcpServerFile emits NewServer, the transports and one handler per tool.
func mcpServerFile(s *mcpServerIR, p string) *genFile {
	g := newFile(p, s.pkg)
	f := g.file
	f.ImportAlias(s.goaPath, s.goaAlias)
	f.ImportAlias(s.toolset.importPath, s.toolsetAlias)
	f.ImportAlias(sdkPkg, "sdk")
	endpoints := jen.Op("*").Qual(s.goaPath, "Endpoints")
	f.Const().Defs(
		doc("Name is the server's name in the MCP handshake."),
		jen.Id("Name").Op("=").Lit(s.name),
		doc("Version is the server's version in the MCP handshake."),
		jen.Id("Version").Op("=").Lit(s.version),
	)
	f.Add(docf("NewServer returns the MCP server of service %q: each tool calls its method's endpoint of e.", s.service))
	f.Func().Id("NewServer").Params(jen.Id("e").Add(endpoints)).Op("*").Qual(sdkPkg, "Server").BlockFunc(func(b *jen.Group) {
		b.Id("s").Op(":=").Qual(sdkPkg, "NewServer").Call(jen.Op("&").Qual(sdkPkg, "Implementation").Values(jen.Dict{
			jen.Id("Name"): jen.Id("Name"), jen.Id("Version"): jen.Id("Version"),
		}), jen.Nil())
		b.Id("schemas").Op(":=").Qual(s.toolset.importPath, "ToolSchemas").Call()
		for i, t := range s.tools {
			fields := jen.Dict{
				jen.Id("Name"):        jen.Lit(t.tool.name),
				jen.Id("Description"): jen.Lit(t.tool.description),
				jen.Id("InputSchema"): jen.Qual(toolsPkg, "MustWithDialect").Call(jen.Id("schemas").Index(jen.Lit(i)).Dot("Payload")),
			}
			if t.tool.resultSchema != nil {
				fields[jen.Id("OutputSchema")] = jen.Qual(toolsPkg, "MustWithDialect").Call(jen.Id("schemas").Index(jen.Lit(i)).Dot("Result"))
			}
			b.Id("s").Dot("AddTool").Call(jen.Op("&").Qual(sdkPkg, "Tool").Values(fields), jen.Id(lowerGoName(t.tool.name)+"Handler").Call(jen.Id("e")))
		}
		b.Return(jen.Id("s"))
	})
	f.Add(doc("ServeStdio serves the MCP server of e over stdin and stdout until ctx is done or the client disconnects."))
	f.Func().Id("ServeStdio").Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("e").Add(endpoints)).Error().Block(
		jen.Return(jen.Id("NewServer").Call(jen.Id("e")).Dot("Run").Call(jen.Id("ctx"), jen.Op("&").Qual(sdkPkg, "StdioTransport").Values())),
	)
	f.Add(doc("NewHTTPHandler returns the streamable HTTP handler of the MCP server of e, to mount next to the service's Goa HTTP handlers. Its SSE streams are resumable: each opens with a priming event, and a client whose stream ended resumes it with Last-Event-ID from the handler's in-memory event store, which keeps at most 10 MiB of events."))
	f.Func().Id("NewHTTPHandler").Params(jen.Id("e").Add(endpoints)).Qual(httpPkg, "Handler").Block(
		jen.Id("s").Op(":=").Id("NewServer").Call(jen.Id("e")),
		jen.Return(jen.Qual(sdkPkg, "NewStreamableHTTPHandler").Call(
			jen.Func().Params(jen.Op("*").Qual(httpPkg, "Request")).Op("*").Qual(sdkPkg, "Server").Block(jen.Return(jen.Id("s"))),
			jen.Op("&").Qual(sdkPkg, "StreamableHTTPOptions").Values(jen.Dict{
				jen.Id("EventStore"): jen.Qual(sdkPkg, "NewMemoryEventStore").Call(jen.Nil()),
			}),
		)),
	)
	for _, t := range s.tools {
		f.Add(toolHandler(s, t))
	}
	f.Add(doc("failure is the result of a call that failed: the model reads err."))
	f.Func().Id("failure").Params(jen.Err().Error()).Op("*").Qual(sdkPkg, "CallToolResult").Block(
		jen.Return(jen.Op("&").Qual(sdkPkg, "CallToolResult").Values(jen.Dict{
			jen.Id("IsError"): jen.True(),
			jen.Id("Content"): jen.Index().Qual(sdkPkg, "Content").Values(jen.Op("&").Qual(sdkPkg, "TextContent").Values(jen.Dict{jen.Id("Text"): jen.Err().Dot("Error").Call()})),
		})),
	)
	for _, h := range s.helpers {
		f.Add(docf("%s builds a value of type %s from a value of type %s.", h.Name, h.ResultTypeRef, h.ParamTypeRef))
		f.Func().Id(h.Name).Params(jen.Id("v").Op(h.ParamTypeRef)).Op(h.ResultTypeRef).Block(jen.Op(h.Code), jen.Return(jen.Id("res")))
	}
	return g
}

// toolHandler emits the handler of one tool.
func toolHandler(s *mcpServerIR, t *servedTool) jen.Code {
	ts := s.toolset.importPath
	name := lowerGoName(t.tool.name) + "Handler"
	return jen.Add(docf("%s calls endpoint %s for tool %q.", name, t.endpoint, t.tool.name)).Line().
		Func().Id(name).Params(jen.Id("e").Op("*").Qual(s.goaPath, "Endpoints")).Qual(sdkPkg, "ToolHandler").Block(
		jen.Id("spec").Op(",").Id("_").Op(":=").Qual(ts, "Spec").Call(jen.Qual(ts, t.tool.goName)),
		jen.Return(jen.Func().Params(
			jen.Id("ctx").Qual(contextPkg, "Context"),
			jen.Id("req").Op("*").Qual(sdkPkg, "CallToolRequest"),
		).Params(jen.Op("*").Qual(sdkPkg, "CallToolResult"), jen.Error()).BlockFunc(func(b *jen.Group) {
			payload := jen.Nil()
			b.Id("raw").Op(":=").Index().Byte().Call(jen.Id("req").Dot("Params").Dot("Arguments"))
			b.If(jen.Len(jen.Id("raw")).Op("==").Lit(0)).Block(jen.Id("raw").Op("=").Index().Byte().Call(jen.Lit("{}")))
			decoded := "_"
			if t.argsCode != "" {
				decoded = "v"
			}
			b.List(jen.Id(decoded), jen.Err()).Op(":=").Id("spec").Dot("Payload").Dot("Decode").Call(jen.Id("raw"))
			b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("failure").Call(jen.Err()), jen.Nil()))
			if t.argsCode != "" {
				b.Id("args").Op(":=").Id("v").Assert(jen.Qual(ts, t.tool.args.name))
				b.Op(t.argsCode)
				payload = jen.Id("p")
			}
			out := "_"
			if t.resultCode != "" {
				out = "out"
			}
			b.List(jen.Id(out), jen.Err()).Op(":=").Id("e").Dot(t.endpoint).Call(jen.Id("ctx"), payload)
			b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("failure").Call(jen.Err()), jen.Nil()))
			if t.resultCode == "" {
				b.Return(jen.Op("&").Qual(sdkPkg, "CallToolResult").Values(jen.Dict{jen.Id("Content"): jen.Index().Qual(sdkPkg, "Content").Values()}), jen.Nil())
				return
			}
			b.List(jen.Id("gres"), jen.Id("ok")).Op(":=").Id("out").Assert(jen.Op(t.resultRef))
			b.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Id("failure").Call(
				jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("endpoint "+t.endpoint+" returned %T, want "+t.resultRef), jen.Id("out")),
			), jen.Nil()))
			b.Op(t.resultCode)
			b.List(jen.Id("data"), jen.Err()).Op(":=").Id("spec").Dot("Result").Dot("Encode").Call(jen.Id("res"))
			b.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("failure").Call(jen.Err()), jen.Nil()))
			b.Return(jen.Op("&").Qual(sdkPkg, "CallToolResult").Values(jen.Dict{
				jen.Id("Content"):           jen.Index().Qual(sdkPkg, "Content").Values(jen.Op("&").Qual(sdkPkg, "TextContent").Values(jen.Dict{jen.Id("Text"): jen.String().Call(jen.Id("data"))})),
				jen.Id("StructuredContent"): jen.Qual(jsonPkg, "RawMessage").Call(jen.Id("data")),
			}), jen.Nil())
		})),
	)
}
