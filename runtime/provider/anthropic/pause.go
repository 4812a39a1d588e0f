package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
)

// MaxPauseContinuations is how many times one answer continues a turn the
// provider paused (stop reason pause_turn) before giving up with
// ErrPaused. The server tools documentation
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools,
// "The server-side loop and pause_turn") has a paused turn continued by
// sending its content back as the assistant turn.
const MaxPauseContinuations = 8

// ErrPaused is matched by the error of an answer whose turn the provider
// still paused after MaxPauseContinuations continuations.
var ErrPaused = errors.New("anthropic: turn still paused")

// pausedTurn collects the content of a turn across the responses that
// continue it.
type pausedTurn struct {
	content []anthropic.BetaContentBlockUnion
	usage   anthropic.BetaUsage
	pauses  int
}

// params returns the request that continues the turn: base, then, once the
// turn paused, the content so far as a final assistant turn, each block
// exactly as the provider sent it.
func (t *pausedTurn) params(base anthropic.BetaMessageNewParams) anthropic.BetaMessageNewParams {
	if len(t.content) == 0 {
		return base
	}
	blocks := make([]anthropic.BetaContentBlockParamUnion, len(t.content))
	for i, b := range t.content {
		blocks[i] = param.Override[anthropic.BetaContentBlockParamUnion](json.RawMessage(b.RawJSON()))
	}
	p := base
	p.Messages = append(append([]anthropic.BetaMessageParam(nil), base.Messages...),
		anthropic.BetaMessageParam{OfAssistant: &anthropic.BetaAssistantMessageParam{Content: blocks}})
	return p
}

// add takes one response of the turn. It reports whether the turn is done,
// and then makes msg the whole turn: every block so far, usage summed.
func (t *pausedTurn) add(msg *anthropic.BetaMessage) (bool, error) {
	t.content = append(t.content, msg.Content...)
	u := msg.Usage
	t.usage.InputTokens += u.InputTokens
	t.usage.OutputTokens += u.OutputTokens
	t.usage.CacheReadInputTokens += u.CacheReadInputTokens
	t.usage.CacheCreationInputTokens += u.CacheCreationInputTokens
	t.usage.OutputTokensDetails.ThinkingTokens += u.OutputTokensDetails.ThinkingTokens
	if msg.StopReason != anthropic.BetaStopReasonPauseTurn {
		msg.Content, msg.Usage = t.content, t.usage
		return true, nil
	}
	t.pauses++
	if t.pauses > MaxPauseContinuations {
		return false, fmt.Errorf("%w after %d continuations", ErrPaused, MaxPauseContinuations)
	}
	return false, nil
}
