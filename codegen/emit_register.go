package codegen

// This file emits the registration of a toolset's typed executor: an
// Executor interface with one method per tool taking typed arguments and
// returning typed results, and Register, which binds it to a runtime through
// a switch over the tool identifiers.

import (
	"github.com/dave/jennifer/jen"
)

// toolsetRegisterFile emits Executor, Register and the adapter between them.
func toolsetRegisterFile(ts *toolsetIR, p string) *genFile {
	if ts.mcpServer != "" {
		return mcpRegisterFile(ts, p)
	}
	if ts.exportedBy != nil {
		return agentToolsRegisterFile(ts, p)
	}
	g := newFile(p, ts.pkg)
	f := g.file
	f.Add(executorInterface(ts))
	f.Add(doc("Register registers the toolset with rt: Toolset() as its schema, Specs() as its codecs, and exec to execute admitted calls."))
	f.Func().Id("Register").Params(jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime"), jen.Id("exec").Id("Executor")).Error().Block(
		jen.If(jen.Id("exec").Op("==").Nil()).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("register toolset %q: nil executor"), jen.Id("Name"))),
		),
		jen.Return(jen.Id("rt").Dot("RegisterToolset").Call(jen.Qual(runtimePkg, "ToolsetRegistration").Add(keyed{
			jen.Id("Schema").Op(":").Id("Toolset").Call(),
			jen.Id("Specs").Op(":").Id("Specs").Call(),
			jen.Id("Executor").Op(":").Id("executor").Values(jen.Id("exec")),
		}.lines()))),
	)
	f.Add(doc("executor adapts an Executor to runtime.ToolExecutor."))
	f.Type().Id("executor").Struct(jen.Id("typed").Id("Executor"))
	f.Add(executeMethod(ts))
	return g
}

// executorInterface emits the typed executor interface.
func executorInterface(ts *toolsetIR) jen.Code {
	return jen.Add(docf("Executor executes the tools of toolset %q with typed arguments and results. An error is reported to the model as the call's error result.", ts.name)).Line().
		Type().Id("Executor").InterfaceFunc(func(g *jen.Group) {
		for _, t := range ts.tools {
			g.Add(docf("%s executes %s: %s", t.goName, t.ident, sentence(t.description)))
			params := []jen.Code{jen.Id("ctx").Qual(contextPkg, "Context")}
			if t.args != nil {
				params = append(params, jen.Id("args").Op("*").Id(t.args.name))
			}
			if t.result != nil {
				g.Id(t.goName).Params(params...).Params(typeCode(t.result), jen.Error())
			} else {
				g.Id(t.goName).Params(params...).Error()
			}
		}
	})
}

// executeMethod emits the switch that decodes each call's typed payload and
// calls the executor's method.
func executeMethod(ts *toolsetIR) jen.Code {
	return jen.Add(doc("Execute implements runtime.ToolExecutor.")).Line().
		Func().Params(jen.Id("e").Id("executor")).Id("Execute").
		Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("call").Op("*").Qual(runtimePkg, "ToolInvocation")).
		Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("call").Dot("Tool")).BlockFunc(func(g *jen.Group) {
			for _, t := range ts.tools {
				g.Case(jen.Id(t.goName)).Block(executeCase(t)...)
			}
		}),
		jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("toolset %q has no tool %q"), jen.Id("Name"), jen.Id("call").Dot("Tool"))),
	)
}

// executeCase emits the body of one tool's case.
func executeCase(t *toolIR) []jen.Code {
	var body []jen.Code
	args := []jen.Code{jen.Id("ctx")}
	if t.args != nil {
		body = append(body,
			jen.List(jen.Id("args"), jen.Id("ok")).Op(":=").Id("call").Dot("Payload").Assert(jen.Id(t.args.name)),
			jen.If(jen.Op("!").Id("ok")).Block(
				jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: payload is %T, want "+t.args.name), jen.Id("call").Dot("Tool"), jen.Id("call").Dot("Payload"))),
			),
		)
		args = append(args, jen.Op("&").Id("args"))
	}
	call := jen.Id("e").Dot("typed").Dot(t.goName).Call(args...)
	if t.result != nil {
		return append(body, jen.Return(call))
	}
	return append(body, jen.Return(jen.Nil(), call))
}

// agentToolsRegisterFile emits Register for an exported toolset: its tools
// run the exporting agent, so the runtime executes them, not an executor. The
// registration carries the toolset's own schemas and codecs, so a call's
// arguments are those the design declares, validated before the child run.
func agentToolsRegisterFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	a := ts.exportedBy
	g.file.Add(docf("Register registers the toolset with rt as tools that run agent %q, which exports it: Toolset() as its schema and Specs() as its codecs. A call's validated arguments start a child run of the agent, whose final text is the call's result.", a.name))
	g.file.Func().Id("Register").Params(jen.Id("rt").Op("*").Qual(runtimePkg, "Runtime")).Error().Block(
		jen.Return(jen.Id("rt").Dot("RegisterAgentToolset").Call(jen.Qual(runtimePkg, "AgentToolset").Add(keyed{
			jen.Id("Schema").Op(":").Id("Toolset").Call(),
			jen.Id("Specs").Op(":").Id("Specs").Call(),
			jen.Id("Agents").Op(":").Map(jen.Qual(toolsPkg, "Ident")).String().Add(keyed(agentToolEntries(ts, a)).lines()),
		}.lines()))),
	)
	return g
}

// agentToolEntries maps each tool of an exported toolset to its agent.
func agentToolEntries(ts *toolsetIR, a *agentIR) []jen.Code {
	entries := make([]jen.Code, len(ts.tools))
	for i, t := range ts.tools {
		entries[i] = jen.Id(t.goName).Op(":").Lit(a.name)
	}
	return entries
}
