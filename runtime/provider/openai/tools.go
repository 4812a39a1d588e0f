package openai

import (
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// searchParameters is the parameter schema of the native tool_search tool:
// a query only, so no tool name is declared up front.
var searchParameters = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"query": map[string]any{
			"type":        "string",
			"description": "Keywords describing the capability you need.",
		},
	},
	"required":             []any{"query"},
	"additionalProperties": false,
}

// searchDescription is the native tool_search tool's own description: its
// parameters are a query only, unlike the emulated discovery tool's.
const searchDescription = "Search for more tools. Only some tools are declared up front; the others load on demand. " +
	"Call this tool with keywords describing the task, or with the name of a tool you need, in \"query\". " +
	"The tools it finds are loaded from then on and can be called like any other tool."

// renderTools renders the request's declarations in their order. Native:
// application tools are functions, the discovery tool is a client-executed
// tool_search, and discovered tools are not declared (tool_search_output
// items in the input load them). Emulated: every tool is a function.
// appText is the application's text for the discovery tool, appended to
// the native tool's description as discovery.Tool appends it.
func (w *wire) renderTools(defs []model.ToolDefinition, appText string) ([]responses.ToolUnionParam, error) {
	var out []responses.ToolUnionParam
	for _, d := range defs {
		switch d.Kind {
		case model.ToolDiscovery:
			if w.discovery != "" {
				return nil, fmt.Errorf("openai: request declares two discovery tools, %q and %q", w.discovery, d.Name)
			}
			w.discovery = d.Name
			if w.native {
				out = append(out, responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{
					Description: sdk.String(nativeSearchDescription(appText)),
					Parameters:  searchParameters,
					Execution:   responses.ToolSearchToolExecutionClient,
				}})
				continue
			}
		case model.ToolDiscovered:
			w.discovered[d.Name] = d
			if w.native {
				continue
			}
		case model.ToolApplication:
		default:
			return nil, fmt.Errorf("openai: tool %q has unknown kind %q", d.Name, d.Kind)
		}
		f, err := w.function(d)
		if err != nil {
			return nil, err
		}
		out = append(out, responses.ToolUnionParam{OfFunction: f})
	}
	return out, nil
}

// function renders a top-level function declaration.
func (w *wire) function(d model.ToolDefinition) (*responses.FunctionToolParam, error) {
	name, err := w.flatName(d.Name)
	if err != nil {
		return nil, err
	}
	params, err := openaiwire.Parameters(d.Name, d.Parameters)
	if err != nil {
		return nil, err
	}
	f := &responses.FunctionToolParam{Name: name, Parameters: params, Strict: sdk.Bool(d.Strict)}
	if d.Description != "" {
		f.Description = sdk.String(d.Description)
	}
	return f, nil
}

// searchOutputTools renders the tools a native tool_search_output loads.
// A snapshot is loaded when the request declares a discovered tool of its
// name with its description, parameters and toolset, rendered as the
// request declares it (strictness included), and when no earlier result
// already loaded it. A superseded snapshot, or one the request does not
// declare (withheld by policy, or a structured-output request), is left
// out. Functions sit in one namespace per toolset, in order of first
// appearance; a snapshot without a toolset is a top-level function. Loaded
// functions carry defer_loading, as tool search loads them.
func (w *wire) searchOutputTools(r *model.DiscoveryResult) ([]responses.ResponseToolSearchOutputItemParamToolUnion, error) {
	tools := []responses.ResponseToolSearchOutputItemParamToolUnion{}
	spaces := map[string]*responses.ToolSearchOutputNamespaceToolParam{}
	for _, s := range r.Tools {
		d, ok := w.declaredAs(s)
		if !ok || w.loaded[s.Name] {
			continue
		}
		w.loaded[s.Name] = true
		params, err := openaiwire.Parameters(d.Name, d.Parameters)
		if err != nil {
			return nil, err
		}
		if d.Namespace == "" {
			name, err := w.flatName(d.Name)
			if err != nil {
				return nil, err
			}
			f := &responses.FunctionToolParam{Name: name, Parameters: params, Strict: sdk.Bool(d.Strict), DeferLoading: sdk.Bool(true)}
			if d.Description != "" {
				f.Description = sdk.String(d.Description)
			}
			tools = append(tools, responses.ResponseToolSearchOutputItemParamToolUnion{OfFunction: f})
			continue
		}
		ns, name, err := w.load(d.Namespace, d.Name)
		if err != nil {
			return nil, err
		}
		space := spaces[ns]
		if space == nil {
			space = &responses.ToolSearchOutputNamespaceToolParam{Name: ns, Description: w.namespaceDescription(d.Namespace)}
			spaces[ns] = space
			tools = append(tools, responses.ResponseToolSearchOutputItemParamToolUnion{OfNamespace: space})
		}
		f := &responses.ToolSearchOutputNamespaceToolToolFunctionParam{Name: name, Parameters: params, Strict: sdk.Bool(d.Strict), DeferLoading: sdk.Bool(true)}
		if d.Description != "" {
			f.Description = sdk.String(d.Description)
		}
		space.Tools = append(space.Tools, responses.ToolSearchOutputNamespaceToolToolUnionParam{OfFunction: f})
	}
	return tools, nil
}

// declaredAs returns the request's declaration of the discovered tool s,
// when the request declares s itself (not another snapshot of its name).
func (w *wire) declaredAs(s model.ToolSnapshot) (model.ToolDefinition, bool) {
	d, ok := w.discovered[s.Name]
	if !ok || d.Description != s.Description || d.Namespace != s.Namespace || string(d.Parameters) != string(s.Parameters) {
		return model.ToolDefinition{}, false
	}
	return d, true
}

// nativeSearchDescription returns the tool_search tool's description.
func nativeSearchDescription(appText string) string {
	if appText == "" {
		return searchDescription
	}
	return searchDescription + "\n\n" + appText
}

// namespaceDescription is the description of a toolset's namespace.
func (w *wire) namespaceDescription(toolset string) string {
	if d := w.namespaceText[toolset]; d != "" {
		return d
	}
	return fmt.Sprintf("Tools of the %s toolset.", toolset)
}
