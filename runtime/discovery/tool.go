package discovery

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ToolName is the name of the discovery tool, the tool the model calls to
// find more tools.
const ToolName = "tool_search"

// reservedNames are the names application tools, deferred tools and
// snapshots may not use: the discovery tool's, the dispatcher's and those of the providers'
// hosted search tools, which adapters declare next to the application's.
var reservedNames = [...]string{
	ToolName,
	DispatcherName,
	"tool_search_tool_bm25",
	"tool_search_tool_regex",
}

// IsReserved reports whether name is reserved by this package.
func IsReserved(name string) bool {
	return slices.Contains(reservedNames[:], name)
}

// ReservedNames returns the reserved names, ToolName first.
func ReservedNames() []string {
	return slices.Clone(reservedNames[:])
}

// toolDescription explains discovery to the model; the application's text
// follows it.
const toolDescription = "Search for more tools. Only some tools are declared up front; " +
	"the others load on demand. Call this tool with keywords describing the task in \"query\", " +
	"with the exact tool names you need in \"names\", or both. " + declaredSentence

// declaredSentence and catalogSentence end the discovery tool's
// description: how found tools are called in each rendering.
const (
	declaredSentence = "The tools it returns are declared from then on and can be called like any other tool."
	catalogSentence  = "The tools it returns are listed in the tool catalog of the conversation and are called through " + DispatcherName + "."
)

// toolParameters is the discovery tool's parameter schema. It is a constant
// so that the declaration renders the same bytes on every request.
const toolParameters = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"Keywords describing the tools to find."},` +
	`"names":{"type":"array","items":{"type":"string"},"description":"Exact names of tools to load."}` +
	`},"additionalProperties":false}`

// Tool returns the discovery tool's definition. Its description explains
// discovery; appText, the application's own guidance, is appended after a
// blank line when not empty.
func Tool(appText string) model.ToolDefinition {
	return tool(toolDescription, appText)
}

// CatalogTool is Tool for conversation catalog mode, whose description says
// that found tools are listed in the catalog and called through the
// dispatcher.
func CatalogTool(appText string) model.ToolDefinition {
	return tool(strings.TrimSuffix(toolDescription, declaredSentence)+catalogSentence, appText)
}

func tool(desc, appText string) model.ToolDefinition {
	if appText != "" {
		desc += "\n\n" + appText
	}
	return model.ToolDefinition{
		Name:        ToolName,
		Description: desc,
		Parameters:  json.RawMessage(toolParameters),
		Kind:        model.ToolDiscovery,
	}
}

// ErrInvalidDiscoveryCall is matched by every error of ParseCall.
var ErrInvalidDiscoveryCall = errors.New("discovery: invalid discovery call")

// ParseCall turns a call of the discovery tool, as an emulating adapter
// receives it (an ordinary tool call named ToolName), into a discovery
// call. The arguments must be a JSON object with a non-empty "query"
// string, a non-empty "names" array of non-empty strings, or both, and
// nothing else.
func ParseCall(call model.ToolCall) (model.DiscoveryCall, error) {
	fail := func(format string, args ...any) (model.DiscoveryCall, error) {
		return model.DiscoveryCall{}, fmt.Errorf("%w %q: %s", ErrInvalidDiscoveryCall, call.ID, fmt.Sprintf(format, args...))
	}
	switch {
	case call.Name != ToolName:
		return fail("calls %q, not %q", call.Name, ToolName)
	case call.ID == "":
		return fail("no call id")
	case len(call.Arguments) == 0:
		return fail("arguments are not valid JSON")
	}
	// The strict decoder refuses duplicate keys and case variants
	// ("Query"), which encoding/json would silently resolve.
	var args struct {
		Query *string   `json:"query"`
		Names *[]string `json:"names"`
	}
	if err := strictjson.Decode(call.Arguments, &args); err != nil {
		return fail("arguments: %v", err)
	}
	var out model.DiscoveryCall
	out.ID = call.ID
	if args.Query != nil {
		out.Query = *args.Query
	}
	if args.Names != nil {
		for i, n := range *args.Names {
			if n == "" {
				return fail("names[%d] is empty", i)
			}
		}
		out.Names = *args.Names
	}
	if out.Query == "" && len(out.Names) == 0 {
		return fail("neither a query nor names")
	}
	return out, nil
}
