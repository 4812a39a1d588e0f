package toolsearch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Counts is one tool's analyzed words: how often each term occurs in each
// field. [Count] computes it from a [Document]; code generation embeds it as
// a composite literal, per tool, and [NewCatalogCounts] merges the counts of
// many tools into the form [NewIndex] builds from.
type Counts struct {
	// Name is the tool's catalog name.
	Name string
	// Alias is the model-facing name when it differs from Name.
	Alias string
	// Terms holds each term of the tool once; [Count] sorts them by Term so
	// that generated code is stable.
	Terms []TermCounts
}

// TermCounts is how many times one term occurs in each field of a tool.
type TermCounts struct {
	// Term is the term as [Terms] produces it.
	Term string
	// Counts are the term's occurrences per field.
	Counts FieldCounts
}

// FieldCounts is how many times a term occurs in each field of a tool.
type FieldCounts struct {
	// Name counts the term in the tool's name and model-facing name, each
	// but for its namespace.
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
	// Namespace counts the term in the namespaces of the tool's name and
	// model-facing name (before the last dot of a dotted name).
	Namespace int32
}

// fields returns the fields the term occurs in.
func (c *FieldCounts) fields() FieldSet {
	return present(c.Name)<<FieldName | present(c.Title)<<FieldTitle |
		present(c.Description)<<FieldDescription | present(c.ParamName)<<FieldParamName |
		present(c.ParamDescription)<<FieldParamDescription | present(c.Extra)<<FieldExtra |
		present(c.Namespace)<<FieldNamespace
}

// present is 1 for a positive count, 0 otherwise.
func present(n int32) FieldSet {
	return FieldSet(uint32(-n) >> 31)
}

// valid reports whether the counts are non-negative with one at least
// positive: an OR of them is positive exactly then.
func (c *FieldCounts) valid() bool {
	return c.Name|c.Title|c.Description|c.ParamName|c.ParamDescription|c.Extra|c.Namespace > 0
}

// invalid explains why counts are not valid.
func (c *FieldCounts) invalid() error {
	if c.Name|c.Title|c.Description|c.ParamName|c.ParamDescription|c.Extra|c.Namespace < 0 {
		return fmt.Errorf("negative count in %+v", *c)
	}
	return errors.New("counted in no field")
}

// addTo adds the counts to the field lengths l. A term is most often in the
// description or the parameters only: the other fields are added when it is
// in one of them, which spares most postings four read-modify-writes of a
// tool's lengths while a catalog's lengths are summed.
func (c *FieldCounts) addTo(l *[numFields]int64) {
	l[FieldDescription] += int64(c.Description)
	l[FieldParamName] += int64(c.ParamName)
	l[FieldParamDescription] += int64(c.ParamDescription)
	if c.Name|c.Title|c.Extra|c.Namespace != 0 {
		l[FieldName] += int64(c.Name)
		l[FieldTitle] += int64(c.Title)
		l[FieldExtra] += int64(c.Extra)
		l[FieldNamespace] += int64(c.Namespace)
	}
}

func (c *FieldCounts) add(f Field) {
	switch f {
	case FieldName:
		c.Name++
	case FieldTitle:
		c.Title++
	case FieldDescription:
		c.Description++
	case FieldParamName:
		c.ParamName++
	case FieldParamDescription:
		c.ParamDescription++
	case FieldExtra:
		c.Extra++
	case FieldNamespace:
		c.Namespace++
	}
}

// in returns the counts of c in the fields of set, zero in the others.
func (c *FieldCounts) in(set FieldSet) FieldCounts {
	keep := func(n int32, f Field) int32 { return n & -int32(set>>f&1) }
	return FieldCounts{
		Name: keep(c.Name, FieldName), Title: keep(c.Title, FieldTitle), Description: keep(c.Description, FieldDescription),
		ParamName: keep(c.ParamName, FieldParamName), ParamDescription: keep(c.ParamDescription, FieldParamDescription),
		Extra: keep(c.Extra, FieldExtra), Namespace: keep(c.Namespace, FieldNamespace),
	}
}

// addCounts adds the counts of o to c.
func (c *FieldCounts) addCounts(o *FieldCounts) {
	c.Name += o.Name
	c.Title += o.Title
	c.Description += o.Description
	c.ParamName += o.ParamName
	c.ParamDescription += o.ParamDescription
	c.Extra += o.Extra
	c.Namespace += o.Namespace
}

// Count analyzes a tool document with [Terms] into its [Counts]. It fails
// with an error wrapping [ErrInvalidDocument] when the name is empty or the
// parameters are not a JSON Schema: one JSON value, without duplicate
// object keys, that is an object, a boolean or null.
func Count(doc Document) (Counts, error) {
	if doc.Name == "" {
		return Counts{}, fmt.Errorf("%w: empty name", ErrInvalidDocument)
	}
	a := newAnalysis(termsPerTool, termsPerTool, false)
	if err := a.document(&doc, 0); err != nil {
		return Counts{}, err
	}
	c := Counts{Name: doc.Name, Terms: make([]TermCounts, len(a.occs))}
	if doc.Alias != doc.Name {
		c.Alias = doc.Alias
	}
	for i, o := range a.occs {
		c.Terms[i] = TermCounts{Term: a.terms.keys[o.term], Counts: o.counts}
	}
	slices.SortFunc(c.Terms, func(a, b TermCounts) int { return strings.Compare(a.Term, b.Term) })
	return c, nil
}
