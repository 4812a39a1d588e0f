package discovery

// The checks of the names a model knows an agent's local tools by, shared
// by gen (package expr, at the design line of the tool or of the Use) and
// by the runtime (RegisterAgent), so that both refuse the same names with
// the same words.

import (
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ModelName returns the name a model knows the local tool id by, the
// portable form of its identifier: "records.lookup" is "records_lookup".
func ModelName(id tools.Ident) string { return PortableName(string(id)) }

// MaxModelNameLength is the longest model-facing name of a local tool, in
// bytes: the providers that cap tool names (Anthropic's and OpenAI's, at
// 64) must receive it whole, never shortened and hashed.
const MaxModelNameLength = 64

// CheckModelName refuses a tool whose model-facing name is reserved for
// tool discovery (IsReserved): "tool.search" reaches the model as
// "tool_search"; or is longer than MaxModelNameLength. The error does not
// name the tool; the caller says which one it checked.
func CheckModelName(id tools.Ident) error {
	name := ModelName(id)
	switch {
	case IsReserved(name):
		return fmt.Errorf("the model knows this tool as %q, a name reserved for tool discovery (reserved: %s); rename the tool or its toolset",
			name, strings.Join(ReservedNames(), ", "))
	case len(name) > MaxModelNameLength:
		return fmt.Errorf("the model knows this tool as %q, %d characters long; toolset name, '_' and tool name together must fit in %d",
			name, len(name), MaxModelNameLength)
	}
	return nil
}

// ModelNames collects the model-facing names of the tools one agent can
// declare and refuses a second tool that reaches the model under a name
// already taken: "a_b.c" and "a.b_c" are both "a_b_c". The zero value is
// ready to use.
type ModelNames struct {
	byName map[string]tools.Ident
}

// Add takes the model-facing name of id. It returns the tool that took
// the name first and false when the name is taken by another tool; a tool
// added twice takes its name once.
func (m *ModelNames) Add(id tools.Ident) (tools.Ident, bool) {
	if m.byName == nil {
		m.byName = make(map[string]tools.Ident)
	}
	name := ModelName(id)
	if first, taken := m.byName[name]; taken && first != id {
		return first, false
	}
	m.byName[name] = id
	return id, true
}

// SharedModelNameError is the error for the tool later, which reaches the
// model under the name the tool first took. where, when not empty, says
// where first came from ("used at design.go:12"); it follows first's name
// in parentheses.
func SharedModelNameError(later, first tools.Ident, where string) error {
	if where != "" {
		where = " (" + where + ")"
	}
	return fmt.Errorf("%s and %s%s both reach the model as %q; rename one",
		toolLabel(later), toolLabel(first), where, ModelName(later))
}

// toolLabel names a tool the way gen's errors do.
func toolLabel(id tools.Ident) string {
	return fmt.Sprintf("tool %q of toolset %q", id.Tool(), id.Toolset())
}
