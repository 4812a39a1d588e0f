package expr

// This file holds the parts that several expressions share so that Goa's own
// DSL words (Meta, Version) work on them through Goa's holder interfaces.

import goaexpr "goa.design/goa/v3/expr"

// metaHolder stores Goa Meta for an expression; it implements
// goaexpr.MetaAdder and goaexpr.MetaDeleter.
type metaHolder struct {
	// Meta is the design metadata set with Goa's Meta DSL.
	Meta goaexpr.MetaExpr
}

// AddMeta appends values to the metadata entry name.
func (m *metaHolder) AddMeta(name string, value ...string) {
	if m.Meta == nil {
		m.Meta = goaexpr.MetaExpr{}
	}
	m.Meta[name] = append(m.Meta[name], value...)
}

// DeleteMeta removes the metadata entry name.
func (m *metaHolder) DeleteMeta(name string) { delete(m.Meta, name) }

// strayVersion records Goa's Version used on an expression that cannot be
// versioned, so that the misuse is reported with every other validation error
// instead of stopping the run before validation. It implements
// goaexpr.VersionHolder.
type strayVersion struct {
	versions []valueDecl
}

// valueDecl is one call of a DSL word that takes a single value (Version,
// URL): the value and where the call was made.
type valueDecl struct {
	value string
	at    Location
}

// SetVersion records a Version call for rejection.
func (s *strayVersion) SetVersion(v string) {
	s.versions = append(s.versions, valueDecl{value: v, at: DesignLocation()})
}

// validate reports every recorded Version call against owner.
func (s *strayVersion) validate(p *problems, owner interface{ EvalName() string }) {
	for _, v := range s.versions {
		p.add(owner, v.at, "Version(%q) is only valid in a Toolset declared with FromRegistry, where it pins the registry toolset version", v.value)
	}
}

// Tag is one tag of a toolset or tool.
type Tag struct {
	// Value is the tag.
	Value string
	// At is the design location of the Tags call.
	At Location
}

// tagValues returns the values of tags in declaration order.
func tagValues(tags []Tag) []string {
	vals := make([]string, len(tags))
	for i, t := range tags {
		vals[i] = t.Value
	}
	return vals
}

// validateTags rejects empty and duplicate tags of owner.
func validateTags(p *problems, owner interface{ EvalName() string }, tags []Tag) {
	seen := make(map[string]Location, len(tags))
	for _, t := range tags {
		if t.Value == "" {
			p.add(owner, t.At, "empty tag in Tags")
			continue
		}
		if first, dup := seen[t.Value]; dup {
			p.add(owner, t.At, "duplicate tag %q (first declared at %s)", t.Value, first)
			continue
		}
		seen[t.Value] = t.At
	}
}
