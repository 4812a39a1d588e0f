package openai

import (
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// RuleMaxOutputTokens: a Responses request sets a positive MaxOutputTokens.
const RuleMaxOutputTokens model.Rule = "max_output_tokens"

// renderRequest checks req (discovery.Check, the output token limit) and
// renders it: declarations, input items, tool choice, sampling and output
// format. The returned wire decodes the response.
func renderRequest(req *model.Request, caps model.Capabilities, namespaces map[string]string) (*wire, responses.ResponseNewParams, error) {
	var params responses.ResponseNewParams
	if req.MaxOutputTokens <= 0 {
		return nil, params, &model.ValidationError{Message: -1, Part: -1, Rule: RuleMaxOutputTokens,
			Detail: fmt.Sprintf("max output tokens is %d, want a positive count", req.MaxOutputTokens)}
	}
	if err := discovery.Check(req, caps); err != nil {
		return nil, params, err
	}
	w := newWire(caps.Discovery == model.DiscoveryNative)
	w.namespaceText = namespaces
	tools, err := w.renderTools(req.Tools, req.Discovery.Description)
	if err != nil {
		return nil, params, err
	}
	input, err := w.renderInput(req.Messages)
	if err != nil {
		return nil, params, err
	}
	params = responses.ResponseNewParams{
		Model:           req.Model,
		Input:           responses.ResponseNewParamsInputUnion{OfInputItemList: input},
		Tools:           tools,
		MaxOutputTokens: sdk.Int(int64(req.MaxOutputTokens)),
	}
	if req.Temperature != nil {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	if params.ToolChoice, err = w.toolChoice(req.ToolChoice); err != nil {
		return nil, params, err
	}
	if f := req.ResponseFormat; f != nil {
		schema, err := openaiwire.Parameters(f.Name, f.Schema)
		if err != nil {
			return nil, params, err
		}
		js := &responses.ResponseFormatTextJSONSchemaConfigParam{Name: f.Name, Schema: schema, Strict: sdk.Bool(f.Strict)}
		if f.Description != "" {
			js.Description = sdk.String(f.Description)
		}
		params.Text = responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{OfJSONSchema: js}}
	}
	return w, params, nil
}

// toolChoice renders the tool choice; the forced tool is one of the
// application's (discovery.Check made sure of it).
func (w *wire) toolChoice(c model.ToolChoice) (responses.ResponseNewParamsToolChoiceUnion, error) {
	var u responses.ResponseNewParamsToolChoiceUnion
	switch c.Mode {
	case model.ToolChoiceAuto:
	case model.ToolChoiceNone:
		u.OfToolChoiceMode = sdk.Opt(responses.ToolChoiceOptionsNone)
	case model.ToolChoiceRequired:
		u.OfToolChoiceMode = sdk.Opt(responses.ToolChoiceOptionsRequired)
	case model.ToolChoiceTool:
		name, ok := w.flat.Provider(c.Name)
		if !ok {
			return u, fmt.Errorf("openai: forced tool %q is not declared", c.Name)
		}
		u.OfFunctionTool = &responses.ToolChoiceFunctionParam{Name: name}
	default:
		return u, fmt.Errorf("openai: unknown tool choice mode %q", c.Mode)
	}
	return u, nil
}
