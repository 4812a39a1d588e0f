package openaichat

import (
	"errors"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// RuleToolsUnsupported: a client built WithoutTools declares no tools.
const RuleToolsUnsupported model.Rule = "tools_unsupported"

// wire is how one request names its tools on the wire, used again to decode
// the response.
type wire struct {
	names *openaiwire.NameMap
	// discovered holds the discovered tools the request declares.
	discovered map[string]bool
	// conv is the conversation catalog rendering, nil in the default one.
	conv *emulation.Conversation
}

// name records and returns the wire name of a tool.
func (w *wire) name(neutral string) (string, error) {
	return w.names.Add(neutral, openaiwire.LegalName(neutral))
}

// neutral maps a called function back to the conversation's tool name; a
// name the request did not declare comes back as the model wrote it.
func (w *wire) neutral(name string) string {
	if n, ok := w.names.Neutral(name); ok {
		return n
	}
	return name
}

// render checks req (discovery.Check) and renders it.
func (c *Client) render(req *model.Request) (*wire, sdk.ChatCompletionNewParams, error) {
	var params sdk.ChatCompletionNewParams
	if req == nil {
		return nil, params, errors.New("openaichat: nil request")
	}
	if err := discovery.Check(req, c.Capabilities(req.Model)); err != nil {
		return nil, params, err
	}
	if err := openaiwire.CheckSampling(req.Model, string(c.effort), req.Temperature); err != nil {
		return nil, params, err
	}
	if c.noTools && len(req.Tools) > 0 {
		return nil, params, &model.ValidationError{Message: -1, Part: -1, Rule: RuleToolsUnsupported,
			Detail: fmt.Sprintf("the endpoint has no function calling but the request declares %d tools", len(req.Tools))}
	}
	w := &wire{names: openaiwire.NewNameMap("request"), discovered: map[string]bool{}}
	if c.catalog || req.Discovery.ConversationCatalog {
		conv, err := emulation.Rewrite(req)
		if err != nil {
			return nil, params, err
		}
		w.conv, req = conv, conv.Request
	}
	tools, err := w.renderTools(req.Tools)
	if err != nil {
		return nil, params, err
	}
	msgs, err := w.renderMessages(req.Messages)
	if err != nil {
		return nil, params, err
	}
	params = sdk.ChatCompletionNewParams{Model: req.Model, Messages: msgs, Tools: tools}
	if req.MaxOutputTokens > 0 {
		if c.legacyTokens {
			params.MaxTokens = sdk.Int(int64(req.MaxOutputTokens))
		} else {
			params.MaxCompletionTokens = sdk.Int(int64(req.MaxOutputTokens))
		}
	}
	if req.Temperature != nil {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	if c.effort != "" {
		params.ReasoningEffort = c.effort
	}
	if params.ToolChoice, err = w.toolChoice(req.ToolChoice, len(tools) > 0); err != nil {
		return nil, params, err
	}
	if f := req.ResponseFormat; f != nil {
		schema, err := openaiwire.Parameters(f.Name, f.Schema)
		if err != nil {
			return nil, params, err
		}
		js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: f.Name, Schema: schema, Strict: sdk.Bool(f.Strict)}
		if f.Description != "" {
			js.Description = sdk.String(f.Description)
		}
		params.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{JSONSchema: js}
	}
	return w, params, nil
}

// renderTools declares every tool as a function, in the request's order.
func (w *wire) renderTools(defs []model.ToolDefinition) ([]sdk.ChatCompletionToolUnionParam, error) {
	var out []sdk.ChatCompletionToolUnionParam
	for _, d := range defs {
		if d.Kind == model.ToolDiscovered {
			w.discovered[d.Name] = true
		}
		name, err := w.name(d.Name)
		if err != nil {
			return nil, err
		}
		params, err := openaiwire.Parameters(d.Name, d.Parameters)
		if err != nil {
			return nil, err
		}
		f := shared.FunctionDefinitionParam{Name: name, Parameters: params, Strict: sdk.Bool(d.Strict)}
		if d.Description != "" {
			f.Description = sdk.String(d.Description)
		}
		out = append(out, sdk.ChatCompletionToolUnionParam{OfFunction: &sdk.ChatCompletionFunctionToolParam{Function: f}})
	}
	return out, nil
}

// renderMessages renders the history: one message per system, user and
// assistant message, one tool message per tool or discovery result.
func (w *wire) renderMessages(msgs []model.Message) ([]sdk.ChatCompletionMessageParamUnion, error) {
	var out []sdk.ChatCompletionMessageParamUnion
	for i, m := range msgs {
		switch m.Role {
		case model.RoleSystem:
			out = append(out, sdk.SystemMessage(m.Text()))
		case model.RoleUser:
			out = append(out, sdk.UserMessage(m.Text()))
		case model.RoleAssistant:
			a, err := w.renderAssistant(m)
			if err != nil {
				return nil, fmt.Errorf("openaichat: message %d: %w", i, err)
			}
			out = append(out, sdk.ChatCompletionMessageParamUnion{OfAssistant: a})
		case model.RoleTool:
			for _, p := range m.Parts {
				out = append(out, sdk.ToolMessage(p.ToolResult.Content, p.ToolResult.CallID))
			}
		case model.RoleDiscovery:
			for _, p := range m.Parts {
				if w.conv != nil {
					out = append(out, sdk.ToolMessage(w.conv.ResultText(*p.DiscoveryResult), p.DiscoveryResult.CallID))
					continue
				}
				text := emulation.ResultText(*p.DiscoveryResult, func(n string) (string, bool) {
					if !w.discovered[n] {
						return "", false
					}
					return w.names.Provider(n)
				})
				out = append(out, sdk.ToolMessage(text, p.DiscoveryResult.CallID))
			}
		default:
			return nil, fmt.Errorf("openaichat: message %d: unknown role %q", i, m.Role)
		}
	}
	return out, nil
}

// renderAssistant renders an assistant message: its text parts (one string
// for one part, content parts for several) and its calls, a discovery call
// being a call of the discovery function.
func (w *wire) renderAssistant(m model.Message) (*sdk.ChatCompletionAssistantMessageParam, error) {
	a := &sdk.ChatCompletionAssistantMessageParam{}
	var texts []string
	for _, p := range m.Parts {
		var id, name, args string
		switch p.Kind {
		case model.PartText:
			texts = append(texts, p.Text)
			continue
		case model.PartToolCall:
			id, name, args = p.ToolCall.ID, p.ToolCall.Name, string(p.ToolCall.Arguments)
			if len(p.ToolCall.Arguments) == 0 {
				args = p.ToolCall.MalformedArguments
			}
		case model.PartDiscoveryCall:
			id, name, args = p.DiscoveryCall.ID, discovery.ToolName, emulation.Arguments(*p.DiscoveryCall)
		case model.PartReasoning:
			continue // Chat Completions takes no reasoning back: dropped
		default:
			return nil, fmt.Errorf("openaichat: assistant part of kind %q", p.Kind)
		}
		wireName, err := w.name(name)
		if err != nil {
			return nil, err
		}
		a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
			ID:       id,
			Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: wireName, Arguments: args},
		}})
	}
	switch {
	case len(texts) == 1:
		a.Content.OfString = sdk.String(texts[0])
	case len(texts) > 1:
		for _, t := range texts {
			a.Content.OfArrayOfContentParts = append(a.Content.OfArrayOfContentParts,
				sdk.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{OfText: &sdk.ChatCompletionContentPartTextParam{Text: t}})
		}
	case len(a.ToolCalls) == 0:
		a.Content.OfString = sdk.String("")
	}
	return a, nil
}

// toolChoice renders the tool choice; without tools it is left out.
func (w *wire) toolChoice(c model.ToolChoice, hasTools bool) (sdk.ChatCompletionToolChoiceOptionUnionParam, error) {
	var u sdk.ChatCompletionToolChoiceOptionUnionParam
	switch c.Mode {
	case model.ToolChoiceAuto:
	case model.ToolChoiceNone:
		if hasTools {
			u.OfAuto = sdk.String("none")
		}
	case model.ToolChoiceRequired:
		u.OfAuto = sdk.String("required")
	case model.ToolChoiceTool:
		name, ok := w.names.Provider(c.Name)
		if !ok {
			return u, fmt.Errorf("openaichat: forced tool %q is not declared", c.Name)
		}
		u.OfFunctionToolChoice = &sdk.ChatCompletionNamedToolChoiceParam{Function: sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: name}}
	default:
		return u, fmt.Errorf("openaichat: unknown tool choice mode %q", c.Mode)
	}
	return u, nil
}
