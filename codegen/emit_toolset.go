package codegen

// This file emits the package of a local toolset: its documentation
// (doc.go), identity and wire records (toolset.go), JSON Schemas (schemas.go), Go types (types.go),
// specs with validating codecs (specs.go), search counts (search.go), the
// registration of a typed executor (register.go) and, for a toolset the
// application executes, its registry provider adapter (provider.go).

import (
	"fmt"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// toolsetFiles returns the files of a toolset package.
func toolsetFiles(ts *toolsetIR) ([]*genFile, error) {
	dir := path.Join(toolsetsDir, ts.pkg)
	schemas, err := toolsetSchemasFile(ts, path.Join(dir, "schemas.go"))
	if err != nil {
		return nil, err
	}
	search, err := toolsetSearchFile(ts, path.Join(dir, "search.go"))
	if err != nil {
		return nil, err
	}
	files := []*genFile{
		docFile(dir, ts.pkg, packageDoc(ts)),
		toolsetMainFile(ts, path.Join(dir, "toolset.go")),
		schemas,
		toolsetTypesFile(ts, path.Join(dir, "types.go")),
		toolsetSpecsFile(ts, path.Join(dir, "specs.go")),
		search,
		toolsetRegisterFile(ts, path.Join(dir, "register.go")),
	}
	if hasTypedExecutor(ts) {
		files = append(files, toolsetProviderFile(ts, path.Join(dir, "provider.go")))
	}
	return files, nil
}

// hasTypedExecutor reports whether the application executes the tools of ts
// with a typed Executor: a local toolset, neither served by an MCP server nor
// exported by an agent.
func hasTypedExecutor(ts *toolsetIR) bool { return ts.mcpServer == "" && ts.exportedBy == nil }

// toolsetMainFile emits the name and tool identifiers, Toolset, ToolSchemas
// and SchemaFingerprint.
func toolsetMainFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	f := g.file
	f.Add(docf("Name is the authored name of toolset %q.", ts.name))
	f.Const().Id("Name").Op("=").Lit(ts.name)
	f.Add(toolIdents(ts))
	f.Add(docf("authoredFingerprint is the SchemaFingerprint of Name, computed when the code was generated."))
	f.Const().Id("authoredFingerprint").Qual(toolsPkg, "Fingerprint").Op("=").Lit(string(ts.fingerprint))
	f.Add(toolsetFunc(ts))
	f.Add(toolSchemasFunc(ts))
	f.Add(schemaFingerprintFunc())
	return g
}

// packageDoc is the package comment of a toolset package.
func packageDoc(ts *toolsetIR) string {
	text := "Package " + ts.pkg + " holds the typed tools of toolset \"" + ts.name + "\""
	if ts.description != "" {
		text += ": " + sentence(ts.description)
	} else {
		text += "."
	}
	register := "Register binds an Executor to a runtime; RegistryExecutor serves the same Executor as a registry provider (registry.ProviderHandler)."
	switch {
	case ts.mcpServer != "":
		register = "Register binds the toolset to a session of MCP server \"" + ts.mcpServer + "\", which executes its tools."
	case ts.exportedBy != nil:
		register = "Register registers the tools with a runtime as tools that run agent \"" + ts.exportedBy.name + "\"."
	}
	return packageComment(text, "Toolset returns the authored registration, Specs the tools with their validating codecs, SearchCounts the precomputed search words, and "+register)
}

// toolIdents emits the tool identifier constants.
func toolIdents(ts *toolsetIR) jen.Code {
	return jen.Const().DefsFunc(func(g *jen.Group) {
		for _, t := range ts.tools {
			g.Add(docf("%s identifies tool %q: %s", t.goName, t.name, sentence(t.description)))
			g.Id(t.goName).Qual(toolsPkg, "Ident").Op("=").Lit(string(t.ident))
		}
	})
}

// toolsetFunc emits Toolset: the authored registration, fresh each call.
func toolsetFunc(ts *toolsetIR) jen.Code {
	var fields keyed
	fields.set("Name", jen.Id("Name"))
	if ts.title != "" {
		fields.set("Title", jen.Lit(ts.title))
	}
	if ts.description != "" {
		fields.set("Description", jen.Lit(ts.description))
	}
	if len(ts.tags) > 0 {
		fields.set("Tags", stringsLit(ts.tags))
	}
	fields.set("Tools", jen.Id("ToolSchemas").Call())
	return jen.Add(doc("Toolset returns the authored registration of the toolset: its name, title, description, tags and tool schemas. Each call returns fresh values that the caller may modify.")).
		Line().Func().Id("Toolset").Params().Qual(toolsPkg, "ToolsetSchema").Block(
		jen.Return(jen.Qual(toolsPkg, "ToolsetSchema").Add(fields.lines())),
	)
}

// toolSchemasFunc emits ToolSchemas: the wire record of every tool.
func toolSchemasFunc(ts *toolsetIR) jen.Code {
	return jen.Add(doc("ToolSchemas returns the wire records of the toolset's tools in declaration order. Each call returns fresh values that the caller may modify.")).
		Line().Func().Id("ToolSchemas").Params().Index().Qual(toolsPkg, "ToolSchema").Block(
		jen.Return(jen.Index().Qual(toolsPkg, "ToolSchema").CustomFunc(multiLine, func(g *jen.Group) {
			for _, t := range ts.tools {
				g.Add(toolSchemaLit(t))
			}
		})),
	)
}

// toolSchemaLit emits the wire record of one tool.
func toolSchemaLit(t *toolIR) jen.Code {
	var fields keyed
	fields.set("Name", jen.Id(t.goName))
	if t.title != "" {
		fields.set("Title", jen.Lit(t.title))
	}
	fields.set("Description", jen.Lit(t.description))
	if len(t.tags) > 0 {
		fields.set("Tags", stringsLit(t.tags))
	}
	fields.set("Payload", jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(payloadSchemaName(t))))
	if t.resultSchema != nil {
		fields.set("Result", jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(resultSchemaName(t))))
	}
	return fields.lines()
}

// schemaFingerprintFunc emits SchemaFingerprint, precomputed for Name.
func schemaFingerprintFunc() jen.Code {
	return jen.Add(doc("SchemaFingerprint returns the fingerprint of the toolset's tool schemas registered under name (see tools.SchemaFingerprint). The fingerprint of Name is precomputed.")).
		Line().Func().Id("SchemaFingerprint").Params(jen.Id("name").String()).Params(jen.Qual(toolsPkg, "Fingerprint"), jen.Error()).Block(
		jen.If(jen.Id("name").Op("==").Id("Name")).Block(jen.Return(jen.Id("authoredFingerprint"), jen.Nil())),
		jen.Return(jen.Qual(toolsPkg, "SchemaFingerprint").Call(jen.Id("name"), jen.Id("ToolSchemas").Call())),
	)
}

// payloadSchemaName and resultSchemaName name the schema constants of a
// tool.
func payloadSchemaName(t *toolIR) string { return lowerGoName(t.name) + "PayloadSchema" }

func resultSchemaName(t *toolIR) string { return lowerGoName(t.name) + "ResultSchema" }

// toolsetSchemasFile emits the JSON Schema constants.
func toolsetSchemasFile(ts *toolsetIR, p string) (*genFile, error) {
	g := newFile(p, ts.pkg)
	var defs []jen.Code
	for _, t := range ts.tools {
		payload, err := rawJSON(t.payloadSchema)
		if err != nil {
			return nil, err
		}
		defs = append(defs, docf("%s is the JSON Schema of the arguments of %s.", payloadSchemaName(t), t.ident),
			jen.Id(payloadSchemaName(t)).Op("=").Add(payload))
		if t.resultSchema == nil {
			continue
		}
		result, err := rawJSON(t.resultSchema)
		if err != nil {
			return nil, err
		}
		defs = append(defs, docf("%s is the JSON Schema of the result of %s.", resultSchemaName(t), t.ident),
			jen.Id(resultSchemaName(t)).Op("=").Add(result))
	}
	g.file.Const().Defs(defs...)
	return g, nil
}

// toolsetTypesFile emits the argument, result and user types, each with
// its SetDefaults method when it holds a default.
func toolsetTypesFile(ts *toolsetIR, p string) *genFile {
	g := newFile(p, ts.pkg)
	for _, nt := range ts.types {
		g.file.Add(structDecl(nt, ts))
		if nt.withDefaults {
			g.file.Add(setDefaultsDecl(nt))
		}
	}
	return g
}

// structDecl emits one struct type with JSON tags and doc comments.
func structDecl(nt *namedType, ts *toolsetIR) jen.Code {
	comment := nt.name + " " + typeRole(nt, ts)
	if nt.doc != "" {
		comment = definition(nt.name, nt.doc, "")
	}
	return jen.Add(doc(comment)).Line().Type().Id(nt.name).StructFunc(func(g *jen.Group) {
		for _, fld := range nt.fields {
			comment := definition(fld.goName, fld.doc, fmt.Sprintf("the %q property", fld.jsonName))
			if fld.deflt != nil {
				comment += " It defaults to " + fld.defaultJSON + " when omitted."
			}
			g.Add(doc(comment))
			// Validation refused the names a tag cannot carry.
			tag, _ := gonames.JSONTag(fld.jsonName, fld.required)
			g.Id(fld.goName).Add(fieldCode(fld)).Tag(map[string]string{"json": tag})
		}
	})
}

// typeRole describes a struct without a design description by its use, as
// the predicate of its doc comment.
func typeRole(nt *namedType, ts *toolsetIR) string {
	for _, t := range ts.tools {
		if t.args == nt {
			return "holds the arguments of tool " + string(t.ident) + "."
		}
		if t.result != nil && t.result.named == nt {
			return "holds the result of tool " + string(t.ident) + "."
		}
	}
	return "is a value of toolset " + ts.name + "."
}

// definition returns the doc comment of an identifier from a design
// description, or from fallback when the description is empty: "Record is
// a customer record." A description that starts with the identifier is kept
// as it is.
func definition(ident, description, fallback string) string {
	text := strings.TrimSpace(description)
	if text == "" {
		text = fallback
	}
	if strings.HasPrefix(text, ident+" ") {
		return sentence(text)
	}
	return ident + " is " + lowerFirst(sentence(text))
}

// lowerFirst lower-cases the first letter of a sentence unless it starts an
// acronym or a name, so that "Name is Customer name." reads "Name is
// customer name.".
func lowerFirst(s string) string {
	if len(s) < 2 || s[0] < 'A' || s[0] > 'Z' || s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
