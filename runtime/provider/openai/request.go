package openai

import (
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// Rules this package checks before sending, besides those of
// discovery.Check.
const (
	// RuleMaxOutputTokens: a Responses request sets a positive
	// MaxOutputTokens.
	RuleMaxOutputTokens model.Rule = "max_output_tokens"
	// RuleStore: without storage (WithStore(false)) every replayed
	// reasoning item carries its encrypted content
	// (https://developers.openai.com/api/docs/guides/reasoning, "Encrypted
	// reasoning items").
	RuleStore model.Rule = "openai_store"
)

// settings are the client's additions to every request.
type settings struct {
	namespaces map[string]string
	store      *bool
	effort     shared.ReasoningEffort
	catalog    bool
}

// renderRequest checks req (discovery.Check, the output token limit, the
// sampling rule) and renders it: declarations, input items, tool choice,
// sampling, storage and output format. The returned wire decodes the
// response.
func renderRequest(req *model.Request, caps model.Capabilities, set settings) (*wire, responses.ResponseNewParams, error) {
	var params responses.ResponseNewParams
	if req.MaxOutputTokens <= 0 {
		return nil, params, &model.ValidationError{Message: -1, Part: -1, Rule: RuleMaxOutputTokens,
			Detail: fmt.Sprintf("max output tokens is %d, want a positive count", req.MaxOutputTokens)}
	}
	if err := discovery.Check(req, caps); err != nil {
		return nil, params, err
	}
	if err := checkSampling(req.Model, set.effort, req.Temperature); err != nil {
		return nil, params, err
	}
	w := newWire(caps.Discovery == model.DiscoveryNative)
	w.namespaceText = set.namespaces
	w.store = set.store == nil || *set.store
	if !w.native && (set.catalog || req.Discovery.ConversationCatalog) {
		conv, err := emulation.Rewrite(req)
		if err != nil {
			return nil, params, err
		}
		w.conv, req = conv, conv.Request
	}
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
	if set.effort != "" {
		params.Reasoning.Effort = set.effort
	}
	if set.store != nil {
		params.Store = sdk.Bool(*set.store)
		if !*set.store {
			params.Include = []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}
		}
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

// RuleSampling is the rule a temperature breaks on a model that reasons
// (see openaiwire.RuleSampling).
const RuleSampling = openaiwire.RuleSampling

func checkSampling(modelID string, effort shared.ReasoningEffort, temperature *float64) error {
	return openaiwire.CheckSampling(modelID, string(effort), temperature)
}
