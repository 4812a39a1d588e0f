package codegen

// This file emits the registry provider adapter of a local toolset
// (provider.go): RegistryExecutor serves the toolset's typed Executor as the
// registry.Executor that registry.ProviderHandler takes. A forwarded call is
// dispatched by its tool identifier, never by the type of its decoded
// arguments (two tools may share one argument type), decoded with the tool's
// validating payload codec, run by the typed method, and its result encoded
// with the tool's result codec.

import (
	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// toolsetProviderFile emits RegistryExecutor and the adapter behind it.
func toolsetProviderFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	f := g.file
	f.Add(docf("RegistryExecutor returns exec as the registry.Executor that registry.ProviderHandler takes, so that a provider serves toolset %q from the same typed Executor that Register binds to a runtime:", ts.name))
	f.Comment("")
	f.Comment("\thttp.Handle(\"/tools\", registry.ProviderHandler(" + ts.pkg + ".RegistryExecutor(exec), 0))")
	f.Comment("")
	f.Add(doc("A forwarded call runs the method of the tool it names. Its payload is decoded with the tool's validating codec (an invalid payload is the call's error, naming the tool) and the method's result is encoded with the tool's result codec, so a result that breaks its schema never leaves the provider. An error of the method is returned as is: one matching registry.ErrOverloaded asks the registry to retry the call, any other is reported to the model. A call of a tool the toolset does not have is an error. RegistryExecutor panics when exec is nil."))
	f.Func().Id(gonames.RegistryExecutorFunc).Params(jen.Id("exec").Id("Executor")).Qual(registryPkg, "Executor").Block(
		jen.If(jen.Id("exec").Op("==").Nil()).Block(
			jen.Panic(jen.Qual(fmtPkg, "Sprintf").Call(jen.Lit("toolset %q: RegistryExecutor of a nil Executor"), jen.Id("Name"))),
		),
		jen.Return(jen.Id("providerExecutor").Values(jen.Id("exec"))),
	)
	f.Add(doc("providerExecutor adapts an Executor to registry.Executor."))
	f.Type().Id("providerExecutor").Struct(jen.Id("typed").Id("Executor"))
	f.Add(executeToolMethod(ts))
	if hasResult(ts) {
		f.Add(encodeResultFunc())
	}
	return g
}

// hasResult reports whether a tool of ts returns a result.
func hasResult(ts *toolsetIR) bool {
	for _, t := range ts.tools {
		if t.result != nil {
			return true
		}
	}
	return false
}

// executeToolMethod emits the switch over the tool identifiers that runs a
// forwarded call.
func executeToolMethod(ts *toolsetIR) jen.Code {
	return jen.Add(doc("ExecuteTool implements registry.Executor.")).Line().
		Func().Params(jen.Id("e").Id("providerExecutor")).Id("ExecuteTool").
		Params(jen.Id("ctx").Qual(contextPkg, "Context"), jen.Id("call").Op("*").Qual(registryPkg, "CallRequest")).
		Params(jen.Qual(jsonPkg, "RawMessage"), jen.Error()).Block(
		jen.Switch(jen.Id("call").Dot("Tool")).BlockFunc(func(g *jen.Group) {
			for _, t := range ts.tools {
				g.Case(jen.Id(t.goName)).Block(executeToolCase(t)...)
			}
		}),
		jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("toolset %q has no tool %q"), jen.Id("Name"), jen.Id("call").Dot("Tool"))),
	)
}

// executeToolCase emits the body of one tool's case: decode the payload with
// the tool's codec, call its method, encode its result.
func executeToolCase(t *toolIR) []jen.Code {
	argsErr := jen.If(jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: arguments: %w"), jen.Id("call").Dot("Tool"), jen.Err())),
	)
	decode := jen.Id("spec").Dot("Payload").Dot("Decode").Call(jen.Id("call").Dot("Payload"))
	body := []jen.Code{jen.Id("spec").Op(":=").Id(specVarName(t)).Call()}
	args := []jen.Code{jen.Id("ctx")}
	if t.args != nil {
		body = append(body,
			jen.List(jen.Id("payload"), jen.Err()).Op(":=").Add(decode),
			argsErr,
			jen.List(jen.Id("args"), jen.Id("ok")).Op(":=").Id("payload").Assert(jen.Id(t.args.name)),
			jen.If(jen.Op("!").Id("ok")).Block(
				jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: arguments decoded to %T, want "+t.args.name), jen.Id("call").Dot("Tool"), jen.Id("payload"))),
			),
		)
		args = append(args, jen.Op("&").Id("args"))
	} else {
		// Without arguments the payload is still checked against its schema:
		// arguments the tool does not take are refused, not dropped.
		body = append(body, jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(decode), argsErr)
	}
	method := jen.Id("e").Dot("typed").Dot(t.goName).Call(args...)
	if t.result == nil {
		return append(body, jen.Return(jen.Nil(), method))
	}
	return append(body,
		jen.List(jen.Id("result"), jen.Err()).Op(":=").Add(method),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("encodeResult").Call(jen.Id("call").Dot("Tool"), jen.Id("spec"), jen.Id("result"))),
	)
}

// encodeResultFunc emits encodeResult, which encodes a method's result with
// the tool's result codec.
func encodeResultFunc() jen.Code {
	return jen.Add(doc("encodeResult encodes the result of tool id with the result codec of its spec, which validates it.")).Line().
		Func().Id("encodeResult").Params(jen.Id("id").Qual(toolsPkg, "Ident"), jen.Id("spec").Qual(toolsPkg, "ToolSpec"), jen.Id("result").Any()).
		Params(jen.Qual(jsonPkg, "RawMessage"), jen.Error()).Block(
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("spec").Dot("Result").Dot("Encode").Call(jen.Id("result")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: result: %w"), jen.Id("id"), jen.Err())),
		),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
}
