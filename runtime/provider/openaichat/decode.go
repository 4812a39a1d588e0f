package openaichat

import (
	"fmt"

	sdk "github.com/openai/openai-go/v3"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// ErrUnexpectedOutput is matched by errors reporting output the adapter
// cannot represent in the conversation: no choice, an unknown finish
// reason, a call without an id or arguments.
var ErrUnexpectedOutput = openaiwire.ErrUnexpectedOutput

// functionCall is one function call of an answer.
type functionCall struct {
	id, name, args string
}

// answer is the first choice of a completion, as Complete reads it and as
// Stream assembles it from chunks, so both build the same response.
type answer struct {
	text    string
	refusal string
	calls   []functionCall
	finish  string
	usage   sdk.CompletionUsage
}

// decodeCompletion reads the first choice of a completion.
func (w *wire) decodeCompletion(c *sdk.ChatCompletion) (*model.Response, error) {
	if len(c.Choices) == 0 {
		return nil, fmt.Errorf("%w: completion %q has no choice", ErrUnexpectedOutput, c.ID)
	}
	ch := c.Choices[0]
	a := answer{text: ch.Message.Content, refusal: ch.Message.Refusal, finish: ch.FinishReason, usage: c.Usage}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "function" {
			return nil, fmt.Errorf("%w: tool call %q of type %q", ErrUnexpectedOutput, tc.ID, tc.Type)
		}
		a.calls = append(a.calls, functionCall{id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
	}
	return w.response(a)
}

// response turns an answer into the assistant message: its text, its
// refusal as text, then its calls in order.
func (w *wire) response(a answer) (*model.Response, error) {
	msg := model.Message{Role: model.RoleAssistant, Parts: []model.Part{}}
	if a.text != "" {
		msg.Parts = append(msg.Parts, model.TextPart(a.text))
	}
	if a.refusal != "" {
		msg.Parts = append(msg.Parts, model.TextPart(a.refusal))
	}
	for _, c := range a.calls {
		p, err := w.callPart(c)
		if err != nil {
			return nil, err
		}
		msg.Parts = append(msg.Parts, p)
	}
	reason, err := finishReason(a)
	if err != nil {
		return nil, err
	}
	resp, err := model.NewResponse(msg, reason, usage(a.usage))
	if err != nil {
		return nil, fmt.Errorf("openaichat: decode response: %w", err)
	}
	resp.ProviderReason = a.finish
	return resp, nil
}

// callPart decodes one function call (see openaiwire.FunctionCallPart).
func (w *wire) callPart(c functionCall) (model.Part, error) {
	return openaiwire.FunctionCallPart(c.id, w.neutral(c.name), c.args, w.neutral)
}

func finishReason(a answer) (model.FinishReason, error) {
	switch a.finish {
	case "stop", "tool_calls", "function_call":
		if a.refusal != "" {
			return model.FinishRefusal, nil
		}
		return model.FinishStop, nil
	case "length":
		return model.FinishLength, nil
	case "content_filter":
		return model.FinishContentFilter, nil
	}
	return "", fmt.Errorf("%w: finish reason %q", ErrUnexpectedOutput, a.finish)
}

func usage(u sdk.CompletionUsage) model.Usage {
	return model.Usage{
		InputTokens:     int(u.PromptTokens),
		OutputTokens:    int(u.CompletionTokens),
		CacheReadTokens: int(u.PromptTokensDetails.CachedTokens),
		ReasoningTokens: int(u.CompletionTokensDetails.ReasoningTokens),
	}
}
