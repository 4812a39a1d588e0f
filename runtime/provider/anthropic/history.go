package anthropic

import (
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
)

// historyRenderer turns the neutral history into Messages API turns.
//
// System messages open the history and become the system prompt. User,
// tool and discovery messages become user turns, merged when consecutive
// (tool results must share the turn after the calls). Discovery calls are
// tool_use blocks of the discovery tool, or with hosted search the
// server_tool_use and tool_search_tool_result pair, sent from the native
// record when the part has one and rebuilt from the neutral call and its
// result when it does not (a history started elsewhere).
type historyRenderer struct {
	names  *names
	mode   mode
	hosted HostedSearch
	// toolReferences renders discovery results as tool_reference blocks:
	// client search with the discovery tool declared, so the referenced
	// tools are declared deferred.
	toolReferences bool
	// conv is the conversation catalog rendering, nil in the others.
	conv *emulation.Conversation
	// changes is the mid-conversation tool change rendering, nil in the
	// others; toolChanges is set once a system message carrying tool
	// changes is rendered.
	changes     *toolChangePlan
	toolChanges bool
	// results are the history's discovery results by call id.
	results map[string]*model.DiscoveryResult
}

func (h *historyRenderer) render(msgs []model.Message) ([]anthropic.BetaTextBlockParam, []anthropic.BetaMessageParam, error) {
	h.results = make(map[string]*model.DiscoveryResult)
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Kind == model.PartDiscoveryResult {
				h.results[p.DiscoveryResult.CallID] = p.DiscoveryResult
			}
		}
	}
	var system []anthropic.BetaTextBlockParam
	var out []anthropic.BetaMessageParam
	var carried []toolChangeRecord
	opening := true
	for i, m := range msgs {
		if m.Role == model.RoleSystem {
			if !opening {
				return nil, nil, invalid(i, -1, RuleSystem, "system message after the conversation started")
			}
			for _, p := range m.Parts {
				if p.Text != "" {
					system = append(system, anthropic.BetaTextBlockParam{Text: p.Text})
				}
			}
			continue
		}
		opening = false
		// A recorded change goes before the answer that carries it; an
		// answer that renders no turn hands it to the next one.
		if rec, ok := h.changes.before(i); ok {
			carried = append(carried, rec)
		}
		blocks, err := h.blocks(i, m)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case len(blocks) == 0 && m.Role == model.RoleDiscovery:
			continue // hosted search results travel inside the assistant turn
		case len(blocks) == 0 && m.Role == model.RoleAssistant:
			// An answer cut off before any content (max_tokens, a provider
			// that answered with reasoning only) says nothing to the model;
			// the API refuses an empty turn, so it renders none.
			continue
		}
		assistant := m.Role == model.RoleAssistant
		if assistant {
			for _, rec := range carried {
				if err := h.appendToolChanges(&out, i, rec); err != nil {
					return nil, nil, err
				}
			}
			carried = nil
		}
		if n := len(out); n > 0 && out[n-1].OfSystem == nil && (out[n-1].OfAssistant != nil) == assistant {
			appendBlocks(&out[n-1], blocks)
			continue
		}
		if assistant {
			out = append(out, anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{Content: blocks}})
		} else {
			out = append(out, anthropic.NewBetaUserMessage(blocks...))
		}
	}
	if h.changes != nil && h.changes.pending.changes() {
		carried = append(carried, h.changes.pending)
	}
	for _, rec := range carried {
		if err := h.appendToolChanges(&out, len(msgs), rec); err != nil {
			return nil, nil, err
		}
	}
	for i, m := range out {
		if (m.OfUser != nil && len(m.OfUser.Content) == 0) || (m.OfAssistant != nil && len(m.OfAssistant.Content) == 0) {
			return nil, nil, invalid(-1, -1, RuleEmptyTurn, "rendered turn %d has no content", i)
		}
	}
	return system, out, nil
}

// appendToolChanges renders a tool change record as a system message
// after the turns so far; the API takes one only right after a user turn
// (consecutive system messages count as one). i is the history message it
// comes before (len(history): the end).
func (h *historyRenderer) appendToolChanges(out *[]anthropic.BetaMessageParam, i int, rec toolChangeRecord) error {
	if n := len(*out); n == 0 || ((*out)[n-1].OfUser == nil && (*out)[n-1].OfSystem == nil) {
		return invalid(i, -1, RuleToolChanges, "a tool change (withdrawing %q, offering %q) must follow a user turn", rec.Removed, rec.Added)
	}
	*out = append(*out, toolChangeMessage(rec, h.names))
	h.toolChanges = true
	return nil
}

func appendBlocks(m *anthropic.BetaMessageParam, blocks []anthropic.BetaContentBlockParamUnion) {
	if m.OfAssistant != nil {
		m.OfAssistant.Content = append(m.OfAssistant.Content, blocks...)
		return
	}
	m.OfUser.Content = append(m.OfUser.Content, blocks...)
}

// blocks renders the parts of message i. Empty text parts carry nothing
// and render to no block (the API rejects empty text blocks).
func (h *historyRenderer) blocks(i int, m model.Message) ([]anthropic.BetaContentBlockParamUnion, error) {
	var out []anthropic.BetaContentBlockParamUnion
	for j := range m.Parts {
		p := &m.Parts[j]
		switch p.Kind {
		case model.PartText:
			if p.Text != "" {
				out = append(out, anthropic.BetaContentBlockParamUnion{OfText: &anthropic.BetaTextBlockParam{Text: p.Text}})
			}
		case model.PartToolCall:
			out = append(out, anthropic.BetaContentBlockParamUnion{OfToolUse: &anthropic.BetaToolUseBlockParam{
				ID:    callID(p.ToolCall.ID),
				Name:  h.names.provider(p.ToolCall.Name),
				Input: toolInput(p.ToolCall),
			}})
		case model.PartDiscoveryCall:
			bs, err := h.discoveryCall(i, j, p)
			if err != nil {
				return nil, err
			}
			out = append(out, bs...)
		case model.PartToolResult:
			r := p.ToolResult
			b := &anthropic.BetaToolResultBlockParam{ToolUseID: callID(r.CallID)}
			if r.Content != "" {
				b.Content = []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: r.Content}}}
			}
			if r.IsError {
				b.IsError = anthropic.Bool(true)
			}
			out = append(out, anthropic.BetaContentBlockParamUnion{OfToolResult: b})
		case model.PartReasoning:
			// Thinking goes back exactly as it came; reasoning made by
			// another provider has no block this API accepts and is dropped.
			if raw, ok := p.Meta[Provider]; ok {
				out = append(out, param.Override[anthropic.BetaContentBlockParamUnion](raw))
			}
		case model.PartDiscoveryResult:
			if h.mode == modeHostedSearch {
				continue // rendered with its call, inside the assistant turn
			}
			out = append(out, anthropic.BetaContentBlockParamUnion{OfToolResult: h.discoveryResult(p.DiscoveryResult)})
		}
	}
	return out, nil
}

// malformedKey holds, in a rendered tool_use input, argument text that was
// not JSON: the Messages API takes only objects, and the text is kept.
const malformedKey = "malformed_arguments"

func toolInput(c *model.ToolCall) any {
	if len(c.Arguments) > 0 {
		return json.RawMessage(c.Arguments)
	}
	return map[string]string{malformedKey: c.MalformedArguments}
}

// discoveryCall renders a discovery call: as a tool_use of the discovery
// tool (also when discovery is now off: the call was made), or with hosted
// search as the provider's own blocks, or rebuilt as a server_tool_use
// block followed by the tool_search_tool_result block answering it.
func (h *historyRenderer) discoveryCall(i, j int, p *model.Part) ([]anthropic.BetaContentBlockParamUnion, error) {
	c := p.DiscoveryCall
	if h.mode != modeHostedSearch {
		return []anthropic.BetaContentBlockParamUnion{{OfToolUse: &anthropic.BetaToolUseBlockParam{
			ID:    callID(c.ID),
			Name:  h.names.provider(discovery.ToolName),
			Input: json.RawMessage(emulation.Arguments(h.providerCall(*c))),
		}}}, nil
	}
	rec, native, err := recordOf(p)
	if err != nil {
		return nil, invalid(i, j, RuleHistory, "%v", err)
	}
	if native && len(rec.ServerToolUse) > 0 && serverToolName(rec.ServerToolUse) != hostedToolName(h.hosted) {
		native = false // recorded with the other hosted tool: rebuild
	}
	if native {
		// The provider's blocks go back as they came: a call whose result
		// it has yet to give (the turn also called a client tool) without
		// one, and the provider runs the search; a result whose call came
		// in an earlier message alone.
		var out []anthropic.BetaContentBlockParamUnion
		for _, raw := range []json.RawMessage{rec.ServerToolUse, rec.ToolSearchResult} {
			if len(raw) > 0 {
				out = append(out, param.Override[anthropic.BetaContentBlockParamUnion](raw))
			}
		}
		return out, nil
	}
	// A call made elsewhere (client search, another provider, the other
	// hosted tool) is rebuilt as the pair the provider would have made,
	// from the neutral call and the result the application recorded.
	r, ok := h.results[c.ID]
	if !ok {
		return nil, invalid(i, j, RuleHistory, "discovery call %q has no result to render", c.ID)
	}
	refs := []anthropic.BetaToolReferenceBlockParam{}
	for _, name := range h.references(r) {
		refs = append(refs, anthropic.BetaToolReferenceBlockParam{ToolName: name})
	}
	use := anthropic.BetaContentBlockParamUnion{OfServerToolUse: &anthropic.BetaServerToolUseBlockParam{
		ID:    hostedID(c.ID),
		Name:  anthropic.BetaServerToolUseBlockParamName(hostedToolName(h.hosted)),
		Input: hostedInput(h.hosted, *c),
	}}
	result := anthropic.BetaContentBlockParamUnion{OfToolSearchToolResult: &anthropic.BetaToolSearchToolResultBlockParam{
		ToolUseID: hostedID(c.ID),
		Content: anthropic.BetaToolSearchToolResultBlockParamContentUnion{
			OfRequestToolSearchToolSearchResultBlock: &anthropic.BetaToolSearchToolSearchResultBlockParam{ToolReferences: refs},
		},
	}}
	return []anthropic.BetaContentBlockParamUnion{use, result}, nil
}

// providerCall returns c with the names the model knows.
func (h *historyRenderer) providerCall(c model.DiscoveryCall) model.DiscoveryCall {
	if len(c.Names) > 0 {
		names := make([]string, len(c.Names))
		for i, n := range c.Names {
			names[i] = h.names.provider(n)
		}
		c.Names = names
	}
	return c
}

// references returns the provider names of the result's tools that the
// request declares: a tool it does not declare (withheld by policy) is
// never shown to the model.
func (h *historyRenderer) references(r *model.DiscoveryResult) []string {
	var out []string
	for _, t := range r.Tools {
		if name, ok := h.names.declared(t.Name); ok {
			out = append(out, name)
		}
	}
	return out
}

// discoveryResult renders a discovery result as the discovery tool's
// result: with client search and discovery on, tool_reference blocks for
// the declared tools it found, which the provider expands into their
// definitions; otherwise (emulation, discovery turned off, nothing found)
// the text of package emulation listing them.
func (h *historyRenderer) discoveryResult(r *model.DiscoveryResult) *anthropic.BetaToolResultBlockParam {
	b := &anthropic.BetaToolResultBlockParam{ToolUseID: callID(r.CallID)}
	if refs := h.references(r); h.toolReferences && len(refs) > 0 {
		for _, name := range refs {
			b.Content = append(b.Content, anthropic.BetaToolResultBlockParamContentUnion{
				OfToolReference: &anthropic.BetaToolReferenceBlockParam{ToolName: name},
			})
		}
		return b
	}
	text := emulation.ResultText(*r, h.names.declared)
	if h.conv != nil {
		text = h.conv.ResultText(*r)
	}
	b.Content = []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: text}}}
	return b
}
