package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// blockDecoder turns the content blocks of one answer into the parts of a
// neutral assistant message. Complete feeds it every block at once; Stream
// feeds each block as it completes. Both end with the same message.
type blockDecoder struct {
	names *names
	// discoveryTool is the declared discovery tool's name; its tool_use
	// blocks are discovery calls.
	discoveryTool string
	parts         []model.Part
	// hosted maps the id of each hosted search call to its part.
	hosted map[string]int
	// open lists hosted calls whose result block has not arrived, in order.
	open []string
}

func newBlockDecoder(names *names, discoveryTool string) *blockDecoder {
	return &blockDecoder{names: names, discoveryTool: discoveryTool, hosted: make(map[string]int)}
}

// add decodes one block. input is the block's tool input as the provider
// sent it (for streamed blocks, the concatenated deltas). It returns the
// part the block completed, if it completed a call: a tool call, a
// discovery call of the discovery tool, or a hosted search call once its
// result block arrives.
func (d *blockDecoder) add(b anthropic.BetaContentBlockUnion, input []byte) (*model.Part, error) {
	switch b.Type {
	case "text":
		d.parts = append(d.parts, model.TextPart(b.Text))
		return nil, nil
	case "tool_use":
		p := d.toolUse(b.ID, b.Name, input)
		d.parts = append(d.parts, p)
		return &d.parts[len(d.parts)-1], nil
	case "thinking", "redacted_thinking":
		// Sent back unmodified on the next requests (the API checks the
		// signature), so the block is kept as it came.
		raw, err := verbatim(b)
		if err != nil {
			return nil, err
		}
		r := model.Reasoning{Text: b.Thinking, Redacted: b.Type == "redacted_thinking"}
		d.parts = append(d.parts, model.ReasoningPart(r, Provider, raw))
		return nil, nil
	case "server_tool_use":
		return nil, d.serverToolUse(b, input)
	case "tool_search_tool_result":
		return d.toolSearchResult(b)
	}
	return nil, fmt.Errorf("anthropic: response block of type %q is not supported", b.Type)
}

// verbatim returns a block kept as it came, to be sent back unchanged. A
// block that gives a key twice is refused: the SDK read one of its values,
// a stored history could not be read back, and the provider might read
// the other one.
func verbatim(b anthropic.BetaContentBlockUnion) (json.RawMessage, error) {
	raw := json.RawMessage(b.RawJSON())
	if err := strictjson.Check(raw, nil); err != nil {
		return nil, fmt.Errorf("anthropic: %s block: %w", b.Type, err)
	}
	return raw, nil
}

// toolUse decodes a tool_use block. A call of the discovery tool whose
// input does not parse stays a tool call of the discovery tool, so the
// runtime answers it with an error instead of losing it.
func (d *blockDecoder) toolUse(id, providerName string, input []byte) model.Part {
	name := d.names.neutral(providerName)
	call := toolCall(id, name, input)
	if d.discoveryTool != "" && name == d.discoveryTool {
		if dc, err := discovery.ParseCall(call); err == nil {
			for i, n := range dc.Names {
				dc.Names[i] = d.names.neutral(n)
			}
			return model.DiscoveryCallPart(dc)
		}
	}
	return model.ToolCallPart(call)
}

// toolCall keeps the input verbatim: compacted JSON, or the text as it
// came when it is not JSON (a stream cut off mid-call).
func toolCall(id, name string, input []byte) model.ToolCall {
	c := model.ToolCall{ID: id, Name: name}
	if len(bytes.TrimSpace(input)) == 0 {
		c.Arguments = json.RawMessage(`{}`) // a call with no input block takes no arguments
		return c
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, input); err != nil {
		c.MalformedArguments = string(input)
		return c
	}
	c.Arguments = buf.Bytes()
	return c
}

// serverToolUse opens a hosted search call with the model's query: the
// BM25 tool's "query", or the regex tool's "pattern". Its names arrive
// with the result block.
func (d *blockDecoder) serverToolUse(b anthropic.BetaContentBlockUnion, input []byte) error {
	switch b.Name {
	case hostedToolName(SearchBM25), hostedToolName(SearchRegex):
	default:
		return fmt.Errorf("anthropic: server tool %q is not supported", b.Name)
	}
	var in struct {
		Query   string `json:"query"`
		Pattern string `json:"pattern"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("anthropic: server tool use %q input: %w", b.ID, err)
	}
	query := in.Query
	if query == "" {
		query = in.Pattern
	}
	raw, err := verbatim(b)
	if err != nil {
		return err
	}
	rec, err := json.Marshal(nativeRecord{ServerToolUse: raw})
	if err != nil {
		return fmt.Errorf("anthropic: record server tool use %q: %w", b.ID, err)
	}
	p := model.DiscoveryCallPart(model.DiscoveryCall{ID: b.ID, Query: query, Hosted: true})
	p.Meta = map[string]json.RawMessage{Provider: rec}
	d.hosted[b.ID] = len(d.parts)
	d.open = append(d.open, b.ID)
	d.parts = append(d.parts, p)
	return nil
}

// toolSearchResult completes a hosted search call: the tools the provider
// loaded become the call's names, so the runtime's answer records exactly
// those tools (discovery answers a hosted call from its names alone), and
// the block joins the call's native record.
func (d *blockDecoder) toolSearchResult(b anthropic.BetaContentBlockUnion) (*model.Part, error) {
	i, ok := d.hosted[b.ToolUseID]
	if !ok {
		// The call is in an earlier message: the provider ran it once the
		// client's tool results came back (a turn that also called a
		// client tool). Its outcome becomes a hosted call of its own.
		return d.laterResult(b)
	}
	raw, err := verbatim(b)
	if err != nil {
		return nil, err
	}
	p := &d.parts[i]
	var rec nativeRecord
	if err := json.Unmarshal(p.Meta[Provider], &rec); err != nil {
		return nil, fmt.Errorf("anthropic: tool search result for %q: %w", b.ToolUseID, err)
	}
	if len(rec.ToolSearchResult) > 0 {
		return nil, fmt.Errorf("anthropic: second tool search result for call %q", b.ToolUseID)
	}
	rec.ToolSearchResult = raw
	stored, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("anthropic: record tool search result %q: %w", b.ToolUseID, err)
	}
	p.Meta = map[string]json.RawMessage{Provider: stored}
	if names := d.loaded(b); len(names) > 0 {
		// The query (or the regex pattern) stays beside the names: it is
		// what the model searched for, and the names what it found.
		call := *p.DiscoveryCall
		call.Names = names
		p.DiscoveryCall = &call
	}
	d.close(b.ToolUseID)
	return p, nil
}

// laterResultSuffix ends the id of the hosted call that holds a search
// result whose server_tool_use came in an earlier message, so that the
// two calls keep distinct ids when rebuilt on another provider.
const laterResultSuffix = "_result"

// laterResult decodes a tool_search_tool_result answering a call of an
// earlier message: a hosted call whose record holds the result block
// alone, sent back as it came.
func (d *blockDecoder) laterResult(b anthropic.BetaContentBlockUnion) (*model.Part, error) {
	if b.ToolUseID == "" {
		return nil, fmt.Errorf("anthropic: tool search result without a tool_use_id")
	}
	result, err := verbatim(b)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(nativeRecord{ToolSearchResult: result})
	if err != nil {
		return nil, fmt.Errorf("anthropic: record tool search result %q: %w", b.ToolUseID, err)
	}
	p := model.DiscoveryCallPart(model.DiscoveryCall{ID: b.ToolUseID + laterResultSuffix, Names: d.loaded(b), Hosted: true})
	p.Meta = map[string]json.RawMessage{Provider: raw}
	d.parts = append(d.parts, p)
	return &d.parts[len(d.parts)-1], nil
}

// loaded returns the conversation's names of the tools a search result
// loaded; none for an error result.
func (d *blockDecoder) loaded(b anthropic.BetaContentBlockUnion) []string {
	if b.Content.Type != "tool_search_tool_search_result" {
		return nil
	}
	var names []string
	for _, ref := range b.Content.ToolReferences {
		names = append(names, d.names.neutral(ref.ToolName))
	}
	return names
}

func (d *blockDecoder) close(id string) {
	for k, open := range d.open {
		if open == id {
			d.open = append(d.open[:k], d.open[k+1:]...)
			return
		}
	}
}

// finish ends the answer and returns the hosted search calls that never
// got a result block (a paused turn): they are complete as they are.
func (d *blockDecoder) finish() []*model.Part {
	var out []*model.Part
	for _, id := range d.open {
		out = append(out, &d.parts[d.hosted[id]])
	}
	d.open = nil
	return out
}

// response decodes a whole message.
func (d *blockDecoder) response(msg *anthropic.BetaMessage) (*model.Response, error) {
	for _, b := range msg.Content {
		if _, err := d.add(b, b.Input); err != nil {
			return nil, err
		}
	}
	d.finish()
	return d.build(msg)
}

// build assembles the response from the decoded parts and the message's
// stop reason and usage. Reasoning tokens are the API's
// output_tokens_details.thinking_tokens, a part of the output tokens.
func (d *blockDecoder) build(msg *anthropic.BetaMessage) (*model.Response, error) {
	reason, err := finishReason(msg.StopReason)
	if err != nil {
		return nil, err
	}
	u := msg.Usage
	usage := model.Usage{
		InputTokens:      int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens),
		OutputTokens:     int(u.OutputTokens),
		CacheReadTokens:  int(u.CacheReadInputTokens),
		CacheWriteTokens: int(u.CacheCreationInputTokens),
		ReasoningTokens:  int(u.OutputTokensDetails.ThinkingTokens),
	}
	resp, err := model.NewResponse(model.AssistantMessage(d.parts...), reason, usage)
	if err != nil {
		return nil, fmt.Errorf("anthropic: decode response: %w", err)
	}
	resp.ProviderReason = string(msg.StopReason)
	return resp, nil
}

// finishReason maps the provider's stop reason. tool_use maps to stop:
// model.NewResponse reports tool_calls whenever calls are pending. A turn
// paused mid-search (pause_turn) never reaches here: Complete and Stream
// continue it.
func finishReason(r anthropic.BetaStopReason) (model.FinishReason, error) {
	switch r {
	case anthropic.BetaStopReasonEndTurn, anthropic.BetaStopReasonStopSequence, anthropic.BetaStopReasonToolUse,
		anthropic.BetaStopReasonPauseTurn, anthropic.BetaStopReasonCompaction:
		return model.FinishStop, nil
	case anthropic.BetaStopReasonMaxTokens, anthropic.BetaStopReasonModelContextWindowExceeded:
		return model.FinishLength, nil
	case anthropic.BetaStopReasonRefusal:
		return model.FinishRefusal, nil
	}
	return "", fmt.Errorf("anthropic: unknown stop reason %q", r)
}
