package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// ErrUnexpectedOutput is matched by errors reporting output the adapter
// cannot represent in the conversation: a tool search the server ran, a
// call without an id or arguments, a response still in progress.
var ErrUnexpectedOutput = openaiwire.ErrUnexpectedOutput

// decodeResponse turns a Responses API response into the assistant message
// and finish reason. Native: the output items are kept verbatim in the
// message's Meta under MetaKey.
func (w *wire) decodeResponse(resp *responses.Response) (*model.Response, error) {
	if resp.Status == responses.ResponseStatusFailed {
		return nil, &model.ProviderError{Provider: openaiwire.Provider, Type: string(resp.Error.Code), Message: resp.Error.Message}
	}
	msg := model.Message{Role: model.RoleAssistant, Parts: []model.Part{}}
	refused := false
	raw := make([]json.RawMessage, 0, len(resp.Output))
	for i := range resp.Output {
		item := &resp.Output[i]
		// Keep only what a later request can send back: typed objects.
		if item.Type == "" || !strings.HasPrefix(strings.TrimSpace(item.RawJSON()), "{") {
			return nil, fmt.Errorf("%w: output item %d has no type", ErrUnexpectedOutput, i)
		}
		parts, refusal, err := w.decodeItem(item)
		if err != nil {
			return nil, err
		}
		msg.Parts = append(msg.Parts, parts...)
		refused = refused || refusal
		raw = append(raw, json.RawMessage(item.RawJSON()))
	}
	if w.native && len(raw) > 0 {
		items, err := encodeItems(raw)
		if err != nil {
			return nil, err
		}
		msg.Meta = map[string]json.RawMessage{MetaKey: items}
	}
	reason, err := finishReason(resp, refused)
	if err != nil {
		return nil, err
	}
	out, err := model.NewResponse(msg, reason, usage(resp.Usage))
	if err != nil {
		return nil, fmt.Errorf("openai: decode response: %w", err)
	}
	out.ProviderReason = string(resp.Status)
	if resp.IncompleteDetails.Reason != "" {
		out.ProviderReason += ": " + resp.IncompleteDetails.Reason
	}
	return out, nil
}

// decodeItem turns one output item into message parts: text and refusals
// of a message, a tool call, or a discovery call (a client tool_search_call
// when native, a call of the discovery function when emulated), or a
// reasoning item. Other items make no part; native Meta keeps them.
func (w *wire) decodeItem(item *responses.ResponseOutputItemUnion) (parts []model.Part, refusal bool, err error) {
	switch item.Type {
	case "message":
		for _, c := range item.AsMessage().Content {
			switch c.Type {
			case "output_text":
				parts = append(parts, model.TextPart(c.Text))
			case "refusal":
				parts = append(parts, model.TextPart(c.Refusal))
				refusal = true
			default:
				return nil, false, fmt.Errorf("%w: message content of type %q", ErrUnexpectedOutput, c.Type)
			}
		}
		return parts, refusal, nil
	case "function_call":
		fc := item.AsFunctionCall()
		p, err := w.decodeFunctionCall(fc.CallID, fc.Namespace, fc.Name, fc.Arguments)
		if err != nil {
			return nil, false, err
		}
		return []model.Part{p}, false, nil
	case "reasoning":
		// Kept as it came: replayed on the next requests of this adapter
		// (with its encrypted content when the client does not store).
		r := item.AsReasoning()
		var texts []string
		for _, s := range r.Summary {
			texts = append(texts, s.Text)
		}
		text := strings.Join(texts, "\n")
		reasoning := model.Reasoning{Text: text, Redacted: text == "" && r.EncryptedContent != ""}
		return []model.Part{model.ReasoningPart(reasoning, MetaKey, []byte(item.RawJSON()))}, false, nil
	case "tool_search_call":
		tc := item.AsToolSearchCall()
		if tc.Execution != responses.ResponseToolSearchCallExecutionClient {
			return nil, false, fmt.Errorf("%w: tool search call %q executed by %q", ErrUnexpectedOutput, tc.CallID, tc.Execution)
		}
		args, err := json.Marshal(tc.Arguments)
		if err != nil {
			return nil, false, fmt.Errorf("openai: tool search call %q: encode arguments: %w", tc.CallID, err)
		}
		call, err := discovery.ParseCall(model.ToolCall{ID: tc.CallID, Name: discovery.ToolName, Arguments: args})
		if err != nil {
			return nil, false, fmt.Errorf("openai: tool search call: %w", err)
		}
		openaiwire.NeutralNames(call.Names, w.flatNeutral)
		return []model.Part{model.DiscoveryCallPart(call)}, false, nil
	}
	return nil, false, nil
}

// decodeFunctionCall maps a function call back to the conversation's tool
// name and decodes it (see openaiwire.FunctionCallPart).
func (w *wire) decodeFunctionCall(id, namespace, name, args string) (model.Part, error) {
	var neutral func(string) string
	if !w.native {
		neutral = w.flatNeutral
	}
	return openaiwire.FunctionCallPart(id, w.neutralName(namespace, name), args, neutral)
}

// finishReason maps the response status.
func finishReason(resp *responses.Response, refused bool) (model.FinishReason, error) {
	switch resp.Status {
	case responses.ResponseStatusCompleted:
		if refused {
			return model.FinishRefusal, nil
		}
		return model.FinishStop, nil
	case responses.ResponseStatusIncomplete:
		switch resp.IncompleteDetails.Reason {
		case "max_output_tokens":
			return model.FinishLength, nil
		case "content_filter":
			return model.FinishContentFilter, nil
		}
		return "", fmt.Errorf("%w: response incomplete: %q", ErrUnexpectedOutput, resp.IncompleteDetails.Reason)
	}
	return "", fmt.Errorf("%w: response status %q", ErrUnexpectedOutput, resp.Status)
}

func usage(u responses.ResponseUsage) model.Usage {
	return model.Usage{
		InputTokens:     int(u.InputTokens),
		OutputTokens:    int(u.OutputTokens),
		CacheReadTokens: int(u.InputTokensDetails.CachedTokens),
		ReasoningTokens: int(u.OutputTokensDetails.ReasoningTokens),
	}
}
