package codegen

// This file resolves the MCP server of a Goa service (FromMCP): for each
// tool, the Goa endpoint it calls and the conversions between the toolset
// package's typed values and Goa's service types, computed by Goa's own
// transform generator from the method's attributes, so that the server
// agrees with Goa's generated types by construction.

import (
	"fmt"
	"path"

	goacodegen "goa.design/goa/v3/codegen"
	"goa.design/goa/v3/codegen/service"
	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// mcpServersDir holds one package per MCP server of a Goa service.
const mcpServersDir = expr.MCPServersDir

// mcpServerIR is the MCP server of a Goa service and its generated package.
type mcpServerIR struct {
	toolset    *toolsetIR
	service    string
	name       string
	version    string
	pkg        string
	importPath string
	// goaPath and goaAlias are the import path and the import name of Goa's
	// service package; toolsetAlias is the import name of the toolset
	// package.
	goaPath, goaAlias, toolsetAlias string
	tools                           []*servedTool
	// helpers are the conversion functions the tools' conversions call,
	// each once, in first-use order.
	helpers []*goacodegen.TransformFunctionData
}

// servedTool is one tool of an MCP server and the method it calls.
type servedTool struct {
	tool *toolIR
	// endpoint is the field of Goa's Endpoints struct.
	endpoint string
	// argsCode converts "args" (the toolset's args) to "p" (Goa's
	// payload); empty when the method takes no payload.
	argsCode string
	// resultRef is the Go type of Goa's result and resultCode converts
	// "gres" (of that type) to "res" (the toolset's result); both empty when
	// the method returns nothing.
	resultRef, resultCode string
}

// buildMCPServer resolves the MCP server that serves the FromMCP toolset ts.
func buildMCPServer(ts *toolsetIR, importPath string) (*mcpServerIR, error) {
	s := ts.expr.MCP.GoaServer()
	svc := service.NewServicesData(goaexpr.Root).Get(s.Service.Name)
	if svc == nil {
		return nil, fmt.Errorf("[%s] %s: Goa has no data for the service", s.At, s.EvalName())
	}
	ir := &mcpServerIR{
		toolset: ts, service: s.Service.Name, name: s.Name, version: s.Version,
		pkg:      gonames.MCPServerPackage(s.Service.Name),
		goaPath:  path.Join(importPath, svc.PathName),
		goaAlias: svc.PkgName + "svc", toolsetAlias: ts.pkg + "tools",
	}
	ir.importPath = path.Join(importPath, mcpServersDir, ir.pkg)
	seen := map[string]bool{}
	for _, t := range ts.tools {
		md := svc.Method(t.expr.Method.Name)
		if md == nil {
			return nil, fmt.Errorf("[%s] %s: Goa has no data for method %q", t.expr.At, t.expr.EvalName(), t.expr.Method.Name)
		}
		st, helpers, err := ir.servedTool(t, md, svc.Scope)
		if err != nil {
			return nil, fmt.Errorf("[%s] %s: MCP server conversion: %w", t.expr.At, t.expr.EvalName(), err)
		}
		for _, h := range helpers {
			if !seen[h.Name] {
				seen[h.Name] = true
				ir.helpers = append(ir.helpers, h)
			}
		}
		ir.tools = append(ir.tools, st)
	}
	return ir, nil
}

// servedTool resolves the conversions of one tool.
func (ir *mcpServerIR) servedTool(t *toolIR, md *service.MethodData, scope *goacodegen.NameScope) (*servedTool, []*goacodegen.TransformFunctionData, error) {
	m := t.expr.Method
	st := &servedTool{tool: t, endpoint: md.VarName}
	ours := goacodegen.NewAttributeContext(false, false, false, ir.toolsetAlias, scope)
	goas := goacodegen.NewAttributeContext(false, false, true, ir.goaAlias, scope)
	var helpers []*goacodegen.TransformFunctionData
	if m.Payload != nil && t.args != nil {
		code, h, err := goacodegen.GoTransform(named(t.expr.Args, t.args.name), m.Payload, "args", "p", ours, goas, "", true)
		if err != nil {
			return nil, nil, fmt.Errorf("payload: %w", err)
		}
		st.argsCode, helpers = code, append(helpers, h...)
	}
	if m.Result != nil && t.result != nil {
		target := t.expr.Return
		if t.result.kind == kindStruct {
			target = named(target, t.result.named.name)
		}
		code, h, err := goacodegen.GoTransform(m.Result, target, "gres", "res", goas, ours, "", true)
		if err != nil {
			return nil, nil, fmt.Errorf("result: %w", err)
		}
		st.resultCode, helpers = code, append(helpers, h...)
		st.resultRef = scope.GoFullTypeRef(m.Result, ir.goaAlias)
	}
	return st, helpers, nil
}

// named returns att as a user type named name, the toolset package's type
// of an inline object, so that Goa's transform generator refers to it by
// that name; att is returned as is when it is a user type already.
func named(att *goaexpr.AttributeExpr, name string) *goaexpr.AttributeExpr {
	if _, ok := att.Type.(goaexpr.UserType); ok {
		return att
	}
	return &goaexpr.AttributeExpr{Type: &goaexpr.UserTypeExpr{AttributeExpr: att, TypeName: name, UID: "goa-discovery#" + name}}
}
