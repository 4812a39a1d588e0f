package expr

import (
	"fmt"

	goaexpr "goa.design/goa/v3/expr"
)

// ToolExpr is one tool of a local toolset: a name a model sees, a description,
// and typed arguments and result.
type ToolExpr struct {
	metaHolder
	strayVersion
	// Name is the authored tool name, unique in its toolset.
	Name string
	// Title is a human-readable title (Goa's Title).
	Title string
	// Description tells the model what the tool does.
	Description string
	// Tags are the tool tags in declaration order.
	Tags []Tag
	// Args describes the tool arguments; nil when the tool takes none. It is a
	// Goa attribute so that code generation derives JSON Schema and Go types
	// from it.
	Args *goaexpr.AttributeExpr
	// Return describes the tool result; nil when the tool returns nothing.
	Return *goaexpr.AttributeExpr
	// ArgsAt and ReturnAt are where Args and Return were called; zero when
	// the tool was built without them.
	ArgsAt, ReturnAt Location
	// Method is the Goa method a tool of a FromMCP toolset calls, whose
	// payload and result are Args and Return; nil for any other tool.
	Method *goaexpr.MethodExpr
	// Toolset is the toolset the tool belongs to.
	Toolset *ToolsetExpr
	// At is where the tool is declared.
	At Location
}

// EvalName returns the tool and toolset names for error messages.
func (t *ToolExpr) EvalName() string {
	return fmt.Sprintf("tool %q of toolset %q", t.Name, t.Toolset.Name)
}

// SetTitle implements goaexpr.TitleHolder.
func (t *ToolExpr) SetTitle(s string) { t.Title = s }

// TagValues returns the tool tags in declaration order.
func (t *ToolExpr) TagValues() []string { return tagValues(t.Tags) }

// validate checks the tool name, description, tags and types.
func (t *ToolExpr) validate(p *problems) {
	if err := CheckName(t.Name); err != nil {
		p.add(t, t.At, "tool name: %v", err)
	}
	if t.Description == "" {
		p.add(t, t.At, "empty description: models choose tools by their description")
	}
	t.validateModelName(p)
	t.validateShapes(p)
	validateTags(p, t, t.Tags)
	t.strayVersion.validate(p, t)
	for _, side := range t.types() {
		if verr := side.att.Validate(side.word, t); verr != nil && len(verr.Errors) > 0 {
			for _, err := range verr.Errors {
				p.add(t, side.at, "%s: %w", side.word, err)
			}
		}
	}
}

// toolType is the Args or the Return of a tool.
type toolType struct {
	// word is "Args" or "Return".
	word string
	att  *goaexpr.AttributeExpr
	// at is where the DSL word was called, or the tool when unknown.
	at Location
}

// types returns the tool's Args and Return, those it declares.
func (t *ToolExpr) types() []toolType {
	var out []toolType
	for _, side := range []toolType{{"Args", t.Args, t.ArgsAt}, {"Return", t.Return, t.ReturnAt}} {
		if side.att == nil {
			continue
		}
		if side.at.IsZero() {
			side.at = t.At
		}
		out = append(out, side)
	}
	return out
}
