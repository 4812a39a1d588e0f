package toolsearch

import (
	"fmt"
	"slices"
	"strings"
)

// Counts is a tool's analyzed words: how often each term occurs in each
// field. It is the precomputed form that generated code embeds as a composite
// literal, so that [NewIndex] builds an index without tokenizing. [Count]
// computes it from a [Document].
type Counts struct {
	// Name is the tool's catalog name.
	Name string
	// Alias is the model-facing name when it differs from Name.
	Alias string
	// Terms holds each term of the tool once, sorted by Term.
	Terms []TermCounts
}

// TermCounts is how many times one term occurs in each field of a tool.
type TermCounts struct {
	// Term is the term as [Terms] produces it.
	Term string
	// Name counts the term in the tool's name and model-facing name.
	Name int32
	// Title counts the term in the title.
	Title int32
	// Description counts the term in the description.
	Description int32
	// ParamName counts the term in parameter names.
	ParamName int32
	// ParamDescription counts the term in parameter titles, descriptions
	// and enumerated values.
	ParamDescription int32
	// Extra counts the term in the extra search terms.
	Extra int32
}

// field returns the count of the term in field f.
func (t *TermCounts) field(f Field) int32 {
	switch f {
	case FieldName:
		return t.Name
	case FieldTitle:
		return t.Title
	case FieldDescription:
		return t.Description
	case FieldParamName:
		return t.ParamName
	case FieldParamDescription:
		return t.ParamDescription
	case FieldExtra:
		return t.Extra
	}
	return 0
}

func (t *TermCounts) add(f Field) {
	switch f {
	case FieldName:
		t.Name++
	case FieldTitle:
		t.Title++
	case FieldDescription:
		t.Description++
	case FieldParamName:
		t.ParamName++
	case FieldParamDescription:
		t.ParamDescription++
	case FieldExtra:
		t.Extra++
	}
}

// Count analyzes a tool document with [Terms] into its [Counts]. It fails
// with an error wrapping [ErrInvalidDocument] when the name is empty or the
// parameters are not a JSON Schema.
func Count(doc Document) (Counts, error) {
	if doc.Name == "" {
		return Counts{}, fmt.Errorf("%w: empty name", ErrInvalidDocument)
	}
	alias := doc.Alias
	if alias == doc.Name {
		alias = ""
	}
	byTerm := make(map[string]*TermCounts)
	var s scanner
	add := func(f Field, text string) {
		s.reset(text)
		for s.next() {
			tc, ok := byTerm[string(s.term)]
			if !ok {
				tc = &TermCounts{Term: string(s.term)}
				byTerm[tc.Term] = tc
			}
			tc.add(f)
		}
	}
	add(FieldName, doc.Name)
	add(FieldName, alias)
	add(FieldTitle, doc.Title)
	add(FieldDescription, doc.Description)
	if err := schemaTexts(doc.Parameters, add); err != nil {
		return Counts{}, fmt.Errorf("%w: tool %q: %w", ErrInvalidDocument, doc.Name, err)
	}
	for _, term := range doc.SearchTerms {
		add(FieldExtra, term)
	}
	c := Counts{Name: doc.Name, Alias: alias, Terms: make([]TermCounts, 0, len(byTerm))}
	for _, tc := range byTerm {
		c.Terms = append(c.Terms, *tc)
	}
	slices.SortFunc(c.Terms, func(a, b TermCounts) int { return strings.Compare(a.Term, b.Term) })
	return c, nil
}
