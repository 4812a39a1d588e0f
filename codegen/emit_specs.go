package codegen

// This file emits the specs of a toolset package: each tool's validating
// codecs, compiled once on first use, Specs and the switch-based Spec.

import (
	"github.com/dave/jennifer/jen"
)

// toolsetSpecsFile emits the spec of every tool, Specs and Spec.
func toolsetSpecsFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	f := g.file
	for _, t := range ts.tools {
		f.Add(toolSpecVar(t))
	}
	f.Add(doc("Specs returns the specs of the toolset's tools in declaration order, with their validating codecs. The codecs are compiled once and shared; the slice is fresh."))
	f.Func().Id("Specs").Params().Index().Qual(toolsPkg, "ToolSpec").Block(
		jen.Return(jen.Index().Qual(toolsPkg, "ToolSpec").ValuesFunc(func(g *jen.Group) {
			for _, t := range ts.tools {
				g.Id(specVarName(t)).Call()
			}
		})),
	)
	f.Add(doc("Spec returns the spec of the tool id, and false when the toolset has no such tool."))
	f.Func().Id("Spec").Params(jen.Id("id").Qual(toolsPkg, "Ident")).Params(jen.Qual(toolsPkg, "ToolSpec"), jen.Bool()).Block(
		jen.Switch(jen.Id("id")).BlockFunc(func(g *jen.Group) {
			for _, t := range ts.tools {
				g.Case(jen.Id(t.goName)).Block(jen.Return(jen.Id(specVarName(t)).Call(), jen.True()))
			}
		}),
		jen.Return(jen.Qual(toolsPkg, "ToolSpec").Values(), jen.False()),
	)
	return g
}

// specVarName names the spec function of a tool.
func specVarName(t *toolIR) string { return lowerGoName(t.name) + "Spec" }

// toolSpecVar emits the spec of one tool, built on first use.
func toolSpecVar(t *toolIR) jen.Code {
	var fields keyed
	fields.set("Name", jen.Id(t.goName))
	fields.set("Description", jen.Lit(t.description))
	fields.set("Payload", payloadCodec(t))
	if t.resultSchema != nil {
		fields.set("Result", jen.Qual(toolsPkg, "NewTypedCodec").Types(typeCode(t.result)).Call(compiled(resultSchemaName(t))))
	}
	return jen.Add(docf("%s returns the spec of %s, compiling its schemas on first use.", specVarName(t), t.ident)).Line().
		Var().Id(specVarName(t)).Op("=").Qual(syncPkg, "OnceValue").Call(
		jen.Func().Params().Qual(toolsPkg, "ToolSpec").Block(
			jen.Return(jen.Qual(toolsPkg, "ToolSpec").Add(fields.lines())),
		),
	)
}

// payloadCodec emits the payload codec of a tool: typed by its argument
// struct, raw when it takes no arguments.
func payloadCodec(t *toolIR) jen.Code {
	if t.args == nil {
		return jen.Qual(toolsPkg, "NewRawCodec").Call(compiled(payloadSchemaName(t)))
	}
	return jen.Qual(toolsPkg, "NewTypedCodec").Types(jen.Id(t.args.name)).Call(compiled(payloadSchemaName(t)))
}

// compiled emits the compilation of a schema constant; generation proved
// that it compiles.
func compiled(schemaConst string) jen.Code {
	return jen.Qual(toolsPkg, "MustCompileSchema").Call(jen.Index().Byte().Parens(jen.Id(schemaConst)))
}
