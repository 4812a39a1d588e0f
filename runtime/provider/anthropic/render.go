package anthropic

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
)

// Rules this package checks before sending a request, besides those of
// discovery.Check, reported in *model.ValidationError.
const (
	// RuleModel: a request names its model.
	RuleModel model.Rule = "anthropic_model"
	// RuleMaxTokens: the Messages API needs a positive output token limit.
	RuleMaxTokens model.Rule = "anthropic_max_tokens"
	// RuleStrict: native rendering sends the deferred tools too; with them,
	// no more strict tools than the model accepts.
	RuleStrict model.Rule = "anthropic_strict"
	// RuleSystem: system messages open the history.
	RuleSystem model.Rule = "anthropic_system"
	// RuleHistory: the history can be rendered (a hosted search call has
	// a result to render with it, native records decode).
	RuleHistory model.Rule = "anthropic_history"
	// RuleEmptyTurn: every rendered turn has content.
	RuleEmptyTurn model.Rule = "anthropic_empty_turn"
	// RuleSampling: the API version the SDK sends (2026-10-21) has no
	// sampling parameters; temperature, top_p and top_k are rejected with
	// 400 whatever their value
	// (https://platform.claude.com/docs/en/api/migration-2026-10-21).
	RuleSampling model.Rule = "anthropic_sampling"
	// RuleDeferredLimit: at most 10,000 tools a request are declared with
	// defer_loading
	// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).
	RuleDeferredLimit model.Rule = "anthropic_deferred_limit"
	// RuleStrictComplexity: across the strict schemas of one request, at
	// most 24 optional parameters and 16 parameters with union types
	// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs,
	// "JSON Schema limitations").
	RuleStrictComplexity model.Rule = "anthropic_strict_complexity"
)

// mode is how one request renders discovery.
type mode int

const (
	modeEmulated mode = iota
	modeClientSearch
	modeHostedSearch
)

// rendered is a request ready to send and what decoding its answer needs.
type rendered struct {
	params anthropic.BetaMessageNewParams
	// opts are per-request SDK options carrying fields params lacks.
	opts  []option.RequestOption
	names *names
	mode  mode
	// discoveryTool is the declared discovery tool's name, "" when none is
	// declared as an ordinary tool.
	discoveryTool string
	// conv is the conversation catalog rendering, nil in the others.
	conv *emulation.Conversation
	// changes is the mid-conversation tool change rendering, nil when the
	// request renders none.
	changes *toolChangePlan
}

// finish completes a decoded response: conversation catalog mode maps
// dispatcher calls and records its catalog message, tool changes record
// theirs.
func (r *rendered) finish(resp *model.Response, err error) (*model.Response, error) {
	if err == nil && r.conv != nil {
		r.conv.Finish(resp)
	}
	if err == nil {
		r.recordToolChanges(resp)
	}
	return resp, err
}

// recordToolChanges puts the request's tool change record, if it has one,
// into the answer's Meta.
func (r *rendered) recordToolChanges(resp *model.Response) {
	if resp == nil || r.changes == nil || r.changes.record == nil {
		return
	}
	meta := maps.Clone(resp.Message.Meta)
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[MetaToolChanges] = r.changes.record
	resp.Message.Meta = meta
}

func (r *rendered) decoder() *blockDecoder {
	return newBlockDecoder(r.names, r.discoveryTool)
}

func invalid(msg, part int, rule model.Rule, format string, args ...any) error {
	return &model.ValidationError{Message: msg, Part: part, Rule: rule, Detail: fmt.Sprintf(format, args...)}
}

// render turns req into the SDK's request parameters.
func (c *Client) render(req *model.Request) (*rendered, error) {
	if req.Model == "" {
		return nil, invalid(-1, -1, RuleModel, "request names no model")
	}
	if req.MaxOutputTokens <= 0 {
		return nil, invalid(-1, -1, RuleMaxTokens, "max output tokens is %d; the Messages API needs a positive limit", req.MaxOutputTokens)
	}
	if req.Temperature != nil {
		return nil, invalid(-1, -1, RuleSampling, "temperature %v is set; API version 2026-10-21 accepts no sampling parameters", *req.Temperature)
	}
	caps := c.Capabilities(req.Model)
	if err := discovery.Check(req, caps); err != nil {
		return nil, err
	}
	r := &rendered{mode: modeEmulated}
	if caps.Discovery == model.DiscoveryNative {
		r.mode = modeClientSearch
		if c.hosted != ClientSearch {
			r.mode = modeHostedSearch
		}
	}
	if r.mode == modeEmulated && (c.catalog || req.Discovery.ConversationCatalog) {
		conv, err := emulation.Rewrite(req)
		if err != nil {
			return nil, err
		}
		r.conv, req = conv, conv.Request
	}
	decl := classify(req)
	var err error
	if r.mode == modeClientSearch && decl.discovery != nil && !c.noToolChanges && toolChanges(parseModelID(req.Model)) {
		if r.changes, err = planToolChanges(req, decl); err != nil {
			return nil, err
		}
	}
	if r.names, err = newNames(decl.names(r.mode)); err != nil {
		return nil, err
	}
	if decl.discovery != nil && r.mode != modeHostedSearch {
		r.discoveryTool = decl.discovery.Name
	}
	tools, err := decl.render(r.names, r.mode, c.hosted, caps.Strict)
	if err != nil {
		return nil, err
	}
	h := historyRenderer{names: r.names, mode: r.mode, conv: r.conv, changes: r.changes, hosted: c.hosted, toolReferences: r.mode == modeClientSearch && decl.discovery != nil}
	system, msgs, err := h.render(req.Messages)
	if err != nil {
		return nil, err
	}
	p := anthropic.BetaMessageNewParams{
		Model:        anthropic.Model(req.Model),
		MaxTokens:    int64(req.MaxOutputTokens),
		System:       system,
		Messages:     msgs,
		Tools:        tools,
		CacheControl: anthropic.NewBetaCacheControlEphemeralParam(),
	}
	if f := req.ResponseFormat; f != nil {
		p.OutputConfig.Format = anthropic.BetaJSONOutputFormatParam{Schema: f.Schema}
	}
	p.ToolChoice = toolChoice(req.ToolChoice, r.names)
	if h.toolChanges {
		p.Betas = []anthropic.AnthropicBeta{BetaToolChanges}
	}
	r.params = p
	return r, nil
}

// toolChoice renders the tool choice discovery.Check accepted. A required
// call may be a discovery call, which the provider's "any" allows.
func toolChoice(tc model.ToolChoice, names *names) anthropic.BetaToolChoiceUnionParam {
	switch tc.Mode {
	case model.ToolChoiceNone:
		return anthropic.BetaToolChoiceUnionParam{OfNone: &anthropic.BetaToolChoiceNoneParam{}}
	case model.ToolChoiceRequired:
		return anthropic.BetaToolChoiceUnionParam{OfAny: &anthropic.BetaToolChoiceAnyParam{}}
	case model.ToolChoiceTool:
		return anthropic.BetaToolChoiceUnionParam{OfTool: &anthropic.BetaToolChoiceToolParam{Name: names.provider(tc.Name)}}
	}
	return anthropic.BetaToolChoiceUnionParam{}
}
