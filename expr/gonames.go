package expr

// This file rejects declarations that code generation would give one Go
// name: two registries, two local toolsets, two agents or the MCP servers
// of two Goa services whose generated packages share a name ("re-cords"
// and "records" are both package records), and two attributes of one
// object whose Go fields share a name.
// The names come from package gonames, the one code generation uses.

import (
	"fmt"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// packageOwner is the first declaration of a generated package name.
type packageOwner struct {
	name string
	expr eval.Expression
	at   Location
}

// packageClaims detects two declarations of one kind that get one Go
// package.
type packageClaims struct {
	kind  string
	first map[string]packageOwner
}

// claim records the package of a declaration named name and reports the
// declaration when an earlier one of another name has the package. Invalid
// names and repeated names are reported on their own.
func (c *packageClaims) claim(p *problems, name string, e eval.Expression, at Location) {
	if CheckName(name) != nil {
		return
	}
	c.claimPackage(p, gonames.Package(name, c.kind), name, e, at)
}

// claimPackage records package pkg of a declaration named name and reports
// the declaration when an earlier one of another name has the package.
func (c *packageClaims) claimPackage(p *problems, pkg, name string, e eval.Expression, at Location) {
	first, dup := c.first[pkg]
	switch {
	case !dup:
		c.first[pkg] = packageOwner{name: name, expr: e, at: at}
	case first.name != name:
		p.add(e, at, "generates Go package %q, already generated for %s (declared at %s): rename one", pkg, first.expr.EvalName(), first.at)
	}
}

// validateGoPackages checks that registries, local toolsets, agents and MCP
// servers each get distinct Go packages.
func (r *RootExpr) validateGoPackages(p *problems) {
	registries := &packageClaims{kind: gonames.KindRegistry, first: map[string]packageOwner{}}
	for _, reg := range r.Registries {
		registries.claim(p, reg.Name, reg, reg.At)
	}
	toolsets := &packageClaims{kind: gonames.KindToolset, first: map[string]packageOwner{}}
	for _, ts := range r.Toolsets {
		if ts.Source == nil {
			toolsets.claim(p, ts.Name, ts, ts.At)
		}
	}
	agents := &packageClaims{kind: gonames.KindAgent, first: map[string]packageOwner{}}
	for _, a := range r.Agents {
		agents.claim(p, a.Name, a, a.At)
	}
	servers := &packageClaims{first: map[string]packageOwner{}}
	for _, s := range r.MCPServers {
		if s.Service != nil {
			servers.claimPackage(p, gonames.MCPServerPackage(s.Service.Name), s.Service.Name, s, s.At)
		}
	}
}

// goFieldClash returns the message for attribute name of an object whose
// Go field is already taken by another attribute, recorded in fields (Go
// field name to attribute name); "" when the field is free.
func goFieldClash(fields map[string]string, name string) string {
	field := gonames.Exported(name)
	if first, dup := fields[field]; dup {
		return fmt.Sprintf("attributes %q and %q both map to Go field %s; rename one", first, name, field)
	}
	fields[field] = name
	return ""
}
