package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
)

// RuleMeta: native records kept in an assistant message's Meta are an array
// of output items.
const RuleMeta model.Rule = "openai_meta"

// renderInput renders the history as input items, in order.
func (w *wire) renderInput(msgs []model.Message) (responses.ResponseInputParam, error) {
	if err := w.planLoads(msgs); err != nil {
		return nil, err
	}
	var in responses.ResponseInputParam
	for i, m := range msgs {
		items, err := w.renderMessage(i, m)
		if err != nil {
			if ve := new(model.ValidationError); errors.As(err, &ve) {
				if ve.Message < 0 {
					ve.Message = i
				}
				return nil, err
			}
			return nil, fmt.Errorf("openai: message %d: %w", i, err)
		}
		in = append(in, items...)
	}
	return in, nil
}

// planLoads records, before the history renders, where each tool that a
// native tool_search_output of the history loads will sit, so that a call
// rendered before that output names the tool as it is loaded: in a history
// whose discovery call and calls of the tools it found share one assistant
// message (as Anthropic's hosted search makes them), the function_call items
// precede the tool_search_output. The names are the ones searchOutputTools
// gives, recorded in the same order.
func (w *wire) planLoads(msgs []model.Message) error {
	if !w.native {
		return nil
	}
	for _, m := range msgs {
		if m.Role != model.RoleDiscovery {
			continue
		}
		for _, p := range m.Parts {
			for _, s := range p.DiscoveryResult.Tools {
				d, ok := w.declaredAs(s)
				if !ok {
					continue
				}
				var err error
				if d.Namespace == "" {
					_, err = w.flatName(d.Name)
				} else {
					_, _, err = w.load(d.Namespace, d.Name)
				}
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (w *wire) renderMessage(index int, m model.Message) ([]responses.ResponseInputItemUnionParam, error) {
	switch m.Role {
	case model.RoleSystem:
		return []responses.ResponseInputItemUnionParam{textItem(responses.EasyInputMessageRoleSystem, m.Text())}, nil
	case model.RoleUser:
		return []responses.ResponseInputItemUnionParam{textItem(responses.EasyInputMessageRoleUser, m.Text())}, nil
	case model.RoleAssistant:
		if raw, ok := m.Meta[MetaKey]; ok && w.native {
			items, err := w.replay(raw)
			if ve := new(model.ValidationError); errors.As(err, &ve) {
				return nil, err
			}
			if err != nil {
				return nil, &model.ValidationError{Message: index, Part: -1, Rule: RuleMeta, Detail: err.Error()}
			}
			return items, nil
		}
		return w.renderAssistant(m)
	case model.RoleTool:
		var out []responses.ResponseInputItemUnionParam
		for _, p := range m.Parts {
			r := p.ToolResult
			out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
				CallID: sdk.String(r.CallID),
				Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: sdk.String(r.Content)},
			}})
		}
		return out, nil
	case model.RoleDiscovery:
		var out []responses.ResponseInputItemUnionParam
		for _, p := range m.Parts {
			item, err := w.renderDiscoveryResult(p.DiscoveryResult)
			if err != nil {
				return nil, err
			}
			out = append(out, item)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown role %q", m.Role)
}

func textItem(role responses.EasyInputMessageRole, text string) responses.ResponseInputItemUnionParam {
	return responses.ResponseInputItemUnionParam{OfMessage: &responses.EasyInputMessageParam{
		Role:    role,
		Content: responses.EasyInputMessageContentUnionParam{OfString: sdk.String(text)},
	}}
}

// replay sends the output items kept in Meta back unchanged.
func (w *wire) replay(raw []byte) ([]responses.ResponseInputItemUnionParam, error) {
	items, err := decodeItems(raw)
	if err != nil {
		return nil, err
	}
	out := make([]responses.ResponseInputItemUnionParam, len(items))
	for i, it := range items {
		if err := w.checkReplayable(it); err != nil {
			return nil, err
		}
		out[i] = param.Override[responses.ResponseInputItemUnionParam](it)
	}
	return out, nil
}

// checkReplayable reports an output item that a request without storage
// cannot send back: a reasoning item without its encrypted content names
// a stored item, which such a request cannot find.
func (w *wire) checkReplayable(item []byte) error {
	if w.store {
		return nil
	}
	var r struct {
		Type             string  `json:"type"`
		ID               string  `json:"id"`
		EncryptedContent *string `json:"encrypted_content"`
	}
	if err := json.Unmarshal(item, &r); err != nil {
		return fmt.Errorf("openai: replayed item: %w", err)
	}
	if r.Type == "reasoning" && (r.EncryptedContent == nil || *r.EncryptedContent == "") {
		return &model.ValidationError{Message: -1, Part: -1, Rule: RuleStore,
			Detail: fmt.Sprintf("reasoning item %q has no encrypted_content; without storage (store: false) the API cannot find it", r.ID)}
	}
	return nil
}

// renderAssistant renders an assistant message from its parts: text as an
// assistant message, tool calls as function_call items (with the namespace
// of a tool loaded in one), discovery calls as tool_search_call items
// (native) or calls of the discovery function (emulated).
func (w *wire) renderAssistant(m model.Message) ([]responses.ResponseInputItemUnionParam, error) {
	var out []responses.ResponseInputItemUnionParam
	for _, p := range m.Parts {
		switch p.Kind {
		case model.PartText:
			out = append(out, textItem(responses.EasyInputMessageRoleAssistant, p.Text))
		case model.PartToolCall:
			c := p.ToolCall
			ns, name, err := w.callName(c.Name)
			if err != nil {
				return nil, err
			}
			args := string(c.Arguments)
			if len(c.Arguments) == 0 {
				args = c.MalformedArguments
			}
			fc := &responses.ResponseFunctionToolCallParam{CallID: c.ID, Name: name, Arguments: args}
			if ns != "" {
				fc.Namespace = sdk.String(ns)
			}
			out = append(out, responses.ResponseInputItemUnionParam{OfFunctionCall: fc})
		case model.PartDiscoveryCall:
			item, err := w.renderDiscoveryCall(p.DiscoveryCall)
			if err != nil {
				return nil, err
			}
			out = append(out, item)
		case model.PartReasoning:
			// Dropped: a reasoning item goes back only next to the items it
			// was produced with, which the native record replays; rebuilt
			// items are not those, and reasoning of another provider is
			// nothing this API reads.
		}
	}
	return out, nil
}

func (w *wire) renderDiscoveryCall(c *model.DiscoveryCall) (responses.ResponseInputItemUnionParam, error) {
	if w.native {
		return responses.ResponseInputItemUnionParam{OfToolSearchCall: &responses.ResponseInputItemToolSearchCallParam{
			CallID:    sdk.String(c.ID),
			Arguments: searchArguments(*c),
			Execution: string(responses.ToolSearchToolExecutionClient),
			Status:    string(responses.ResponseToolSearchCallStatusCompleted),
		}}, nil
	}
	name, err := w.discoveryName()
	if err != nil {
		return responses.ResponseInputItemUnionParam{}, err
	}
	return responses.ResponseInputItemUnionParam{OfFunctionCall: &responses.ResponseFunctionToolCallParam{
		CallID: c.ID, Name: name, Arguments: emulation.Arguments(*c),
	}}, nil
}

// searchArguments are the arguments of a tool_search_call rebuilt from a
// discovery call that has no native record (made on another adapter or
// rendering): the native tool takes a query only, so the call's query and
// the names it asked for, in that order, make the query.
func searchArguments(c model.DiscoveryCall) map[string]string {
	words := c.Names
	if c.Query != "" {
		words = append([]string{c.Query}, c.Names...)
	}
	return map[string]string{"query": strings.Join(words, " ")}
}

func (w *wire) renderDiscoveryResult(r *model.DiscoveryResult) (responses.ResponseInputItemUnionParam, error) {
	if w.native {
		tools, err := w.searchOutputTools(r)
		if err != nil {
			return responses.ResponseInputItemUnionParam{}, err
		}
		return responses.ResponseInputItemUnionParam{OfToolSearchOutput: &responses.ResponseToolSearchOutputItemParam{
			CallID:    sdk.String(r.CallID),
			Tools:     tools,
			Execution: responses.ResponseToolSearchOutputItemParamExecutionClient,
			Status:    responses.ResponseToolSearchOutputItemParamStatusCompleted,
		}}, nil
	}
	text := emulation.ResultText(*r, func(n string) (string, bool) {
		if _, ok := w.discovered[n]; !ok {
			return "", false
		}
		return w.flat.Provider(n)
	})
	if w.conv != nil {
		text = w.conv.ResultText(*r)
	}
	return responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
		CallID: sdk.String(r.CallID),
		Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: sdk.String(text)},
	}}, nil
}
