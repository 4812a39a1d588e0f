package codegen

// This file resolves a local toolset: its tools' identifiers, Go types,
// JSON Schemas, search counts and the fingerprint of its authored name.

import (
	"encoding/json"
	"fmt"
	"path"

	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// buildToolset resolves a local toolset.
func buildToolset(ts *expr.ToolsetExpr, importPath string) (*toolsetIR, error) {
	ir := &toolsetIR{
		expr: ts, name: ts.Name, title: ts.Title, description: ts.Description,
		tags: ts.TagValues(), pkg: packageName(ts.Name, gonames.KindToolset),
	}
	ir.importPath = path.Join(importPath, toolsetsDir, ir.pkg)
	types := newTypeCollector()
	if ts.MCP != nil {
		ir.mcpServer = ts.MCP.Server
	}
	for _, id := range gonames.ToolsetIdentifiers(ts.MCP != nil) {
		if err := types.claim(id, "the toolset package"); err != nil {
			return nil, err
		}
	}
	for _, t := range ts.Tools {
		tool, err := buildTool(t, types)
		if err != nil {
			return nil, fmt.Errorf("[%s] %s: %w", t.At, t.EvalName(), err)
		}
		tool.toolset = ir
		ir.tools = append(ir.tools, tool)
	}
	ir.types = types.types
	if err := markDefaults(ir.types); err != nil {
		return nil, fmt.Errorf("[%s] %s: %w", ts.At, ts.EvalName(), err)
	}
	fp, err := tools.SchemaFingerprint(ir.name, ir.toolSchemas())
	if err != nil {
		return nil, fmt.Errorf("[%s] %s: fingerprint: %w", ts.At, ts.EvalName(), err)
	}
	ir.fingerprint = fp
	return ir, nil
}

// buildTool resolves one tool.
func buildTool(t *expr.ToolExpr, types *typeCollector) (*toolIR, error) {
	ident, err := tools.NewIdent(t.Toolset.Name, t.Name)
	if err != nil {
		return nil, err
	}
	tool := &toolIR{
		expr: t, name: t.Name, ident: ident, goName: gonames.Tool(t.Name),
		title: t.Title, description: t.Description, tags: t.TagValues(),
	}
	if err := types.claim(tool.goName, fmt.Sprintf("the identifier of tool %q", t.Name)); err != nil {
		return nil, err
	}
	if err := tool.buildArgs(t.Args, types); err != nil {
		return nil, err
	}
	if t.Return != nil {
		if tool.resultSchema, err = expr.JSONSchema(t.Return, "Return"); err != nil {
			return nil, err
		}
		if tool.result, err = types.typeOf(t.Return, gonames.ResultType(t.Name), "Return"); err != nil {
			return nil, err
		}
	}
	doc, err := searchDocument(tool.schema())
	if err != nil {
		return nil, err
	}
	if tool.counts, err = toolsearch.Count(doc); err != nil {
		return nil, fmt.Errorf("search counts: %w", err)
	}
	return tool, nil
}

// searchDocument returns the search document of a tool the way the runtime
// indexes a deferred tool: named by its Ident, with the name the model calls
// it by (its discovery snapshot name) as alias, and the snapshot's
// parameters.
func searchDocument(s tools.ToolSchema) (toolsearch.Document, error) {
	entry, err := discovery.EntryFromSchema(&s)
	if err != nil {
		return toolsearch.Document{}, fmt.Errorf("search document: %w", err)
	}
	return toolsearch.Document{
		Name:        string(s.Name),
		Alias:       entry.Snapshot.Name,
		Title:       s.Title,
		Description: s.Description,
		Parameters:  entry.Snapshot.Parameters,
		SearchTerms: entry.SearchTerms,
	}, nil
}

// buildArgs resolves the payload: an object (validation proved it), or
// nothing.
func (tool *toolIR) buildArgs(args *goaexpr.AttributeExpr, types *typeCollector) error {
	if args == nil {
		tool.payloadSchema = expr.EmptyObjectSchema()
		return nil
	}
	var err error
	if tool.payloadSchema, err = expr.JSONSchema(args, "Args"); err != nil {
		return err
	}
	typ, err := types.typeOf(args, gonames.ArgsType(tool.name), "Args")
	if err != nil {
		return err
	}
	tool.args = typ.named
	return nil
}

// toolSchemas returns the wire records of the toolset's tools, the same
// values the generated ToolSchemas returns.
func (ts *toolsetIR) toolSchemas() []tools.ToolSchema {
	out := make([]tools.ToolSchema, len(ts.tools))
	for i, t := range ts.tools {
		out[i] = t.schema()
	}
	return out
}

// schema returns the wire record of the tool.
func (t *toolIR) schema() tools.ToolSchema {
	s := tools.ToolSchema{
		Name: t.ident, Title: t.title, Description: t.description, Tags: t.tags,
		Payload: json.RawMessage(t.payloadSchema),
	}
	if t.resultSchema != nil {
		s.Result = json.RawMessage(t.resultSchema)
	}
	return s
}
