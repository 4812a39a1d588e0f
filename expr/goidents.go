package expr

// This file rejects the declarations of a toolset's generated package that
// would get one Go identifier: a tool whose constant takes the name of an
// identifier every toolset package declares ("specs" is Specs) or of a type
// of the package (tool "record" next to type "Record"), and two types of one
// name. It also rejects an attribute whose Go field would hide the method
// that sets the defaults of its struct. Names and structs come from package
// gonames, with which code generation declares them, in the order it does,
// so each collision is reported at the tool, Args or Return that makes it.

import (
	"fmt"
	"strings"

	goaexpr "goa.design/goa/v3/expr"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// identOwner is the first declaration of a Go identifier of a toolset
// package, described for errors.
type identOwner string

// toolsetIdents detects two declarations of one toolset package that get
// one Go identifier.
type toolsetIdents struct {
	p     *problems
	first map[string]identOwner
}

// claim records identifier id for the declaration what, made at tool t's
// line at, and reports the tool when an earlier declaration has id.
func (c *toolsetIdents) claim(t *ToolExpr, at Location, id, what string, owner identOwner) {
	if first, dup := c.first[id]; dup {
		c.p.add(t, at, "Go identifier %s of %s is already used by %s: rename one", id, what, first)
		return
	}
	c.first[id] = owner
}

// validateGoIdentifiers checks the Go identifiers of the toolset's
// generated package; a toolset whose tools are only known at run time has
// none. Tools with an invalid or repeated name are reported on their own.
func (ts *ToolsetExpr) validateGoIdentifiers(p *problems) {
	if ts.IsDynamic() {
		return
	}
	c := &toolsetIdents{p: p, first: map[string]identOwner{}}
	fixed := gonames.ToolsetIdentifiers(ts.MCP != nil)
	pkg := identOwner(fmt.Sprintf("the toolset package itself (it declares %s)", strings.Join(fixed, ", ")))
	for _, id := range fixed {
		c.first[id] = pkg
	}
	declarer := gonames.NewDeclarer()
	seen := make(map[string]bool, len(ts.Tools))
	for _, t := range ts.Tools {
		if CheckName(t.Name) != nil || seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		c.claim(t, t.At, gonames.Tool(t.Name), "the tool", identOwner(fmt.Sprintf("tool %q (at %s)", t.Name, t.At)))
		for _, side := range t.types() {
			name := gonames.ArgsType(t.Name)
			if side.word == "Return" {
				name = gonames.ResultType(t.Name)
			}
			for _, s := range declarer.Structs(side.att, name, side.word) {
				c.claim(t, side.at, s.Name, "the struct of "+s.Owner, identOwner(fmt.Sprintf("the struct of %s in tool %q (at %s)", s.Owner, t.Name, side.at)))
				validateDefaultsMethod(p, t, side.at, s)
			}
		}
	}
}

// validateDefaultsMethod reports the attribute of struct s whose Go field
// would hide the method that sets the defaults of s, when s has one.
func validateDefaultsMethod(p *problems, t *ToolExpr, at Location, s gonames.Struct) {
	obj := goaexpr.AsObject(s.Attribute.Type)
	if obj == nil || !holdsDefaults(s.Attribute, map[string]bool{}) {
		return
	}
	for _, nat := range *obj {
		if gonames.Exported(nat.Name) == gonames.DefaultsMethod {
			p.add(t, at, "%s attribute %q: its Go field %s would hide the method %s.%s that sets the type's defaults; rename the attribute",
				s.Owner, nat.Name, gonames.DefaultsMethod, s.Name, gonames.DefaultsMethod)
			return
		}
	}
}
