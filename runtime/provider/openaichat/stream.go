package openaichat

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// Stream renders and sends req and returns its answer as events: text
// deltas, each call once the model has moved past it, and a done event
// holding the response Complete would return. The request asks for usage in
// the stream.
func (c *Client) Stream(ctx context.Context, req *model.Request) (model.Stream, error) {
	w, params, err := c.render(req)
	if err != nil {
		return nil, err
	}
	params.StreamOptions.IncludeUsage = sdk.Bool(true)
	s := &stream{Receiver: openaiwire.Receiver[sdk.ChatCompletionChunk]{SDK: c.sdk.Chat.Completions.NewStreaming(ctx, params)}, w: w}
	if w.conv != nil {
		return w.conv.Stream(s), nil
	}
	return s, nil
}

// partialCall is a function call being streamed.
type partialCall struct {
	id, name string
	args     strings.Builder
}

// stream assembles the first choice from chunks.
type stream struct {
	openaiwire.Receiver[sdk.ChatCompletionChunk]
	w       *wire
	text    strings.Builder
	refusal strings.Builder
	calls   []*partialCall
	sent    int // calls already sent as events
	finish  string
	usage   sdk.CompletionUsage
}

// Recv returns the next event, io.EOF after the done event, or the error
// that ended the stream.
func (s *stream) Recv() (model.Event, error) {
	return s.Receiver.Recv("openaichat", s.handle, s.finishStream)
}

// handle folds one chunk into the answer.
func (s *stream) handle(c sdk.ChatCompletionChunk) error {
	if c.JSON.Usage.Valid() {
		s.usage = c.Usage
	}
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		d := ch.Delta
		if d.Content != "" {
			s.text.WriteString(d.Content)
			s.Pending = append(s.Pending, &model.TextDeltaEvent{Text: d.Content})
		}
		if d.Refusal != "" {
			s.refusal.WriteString(d.Refusal)
			s.Pending = append(s.Pending, &model.TextDeltaEvent{Text: d.Refusal})
		}
		for _, tc := range d.ToolCalls {
			i := int(tc.Index)
			if i < len(s.calls)-1 || i > len(s.calls) || i < s.sent {
				return fmt.Errorf("%w: tool call delta for index %d after %d calls", ErrUnexpectedOutput, i, len(s.calls))
			}
			if i == len(s.calls) {
				// A new call starts: the ones before it are complete.
				if err := s.sendCalls(len(s.calls)); err != nil {
					return err
				}
				s.calls = append(s.calls, &partialCall{})
			}
			p := s.calls[i]
			p.id += tc.ID
			p.name += tc.Function.Name
			p.args.WriteString(tc.Function.Arguments)
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
			if err := s.sendCalls(len(s.calls)); err != nil {
				return err
			}
		}
	}
	return nil
}

// sendCalls sends the calls before index n not yet sent as events.
func (s *stream) sendCalls(n int) error {
	for ; s.sent < n; s.sent++ {
		p := s.calls[s.sent]
		part, err := s.w.callPart(functionCall{id: p.id, name: p.name, args: p.args.String()})
		if err != nil {
			return err
		}
		switch part.Kind {
		case model.PartToolCall:
			s.Pending = append(s.Pending, &model.ToolCallEvent{Call: *part.ToolCall})
		case model.PartDiscoveryCall:
			s.Pending = append(s.Pending, &model.DiscoveryCallEvent{Call: *part.DiscoveryCall})
		}
	}
	return nil
}

// finishStream builds the done event once the server ended the stream.
func (s *stream) finishStream() error {
	if s.finish == "" {
		return model.ErrStreamIncomplete
	}
	a := answer{text: s.text.String(), refusal: s.refusal.String(), finish: s.finish, usage: s.usage}
	for _, p := range s.calls {
		a.calls = append(a.calls, functionCall{id: p.id, name: p.name, args: p.args.String()})
	}
	resp, err := s.w.response(a)
	if err != nil {
		return err
	}
	s.Pending = append(s.Pending, &model.DoneEvent{Response: resp})
	s.Done = true
	return nil
}

// Close stops the stream.
func (s *stream) Close() error { return s.Stop("openaichat") }
