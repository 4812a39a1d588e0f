package openai

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// Stream renders and sends req and returns its answer as events: text
// deltas, each tool call and each discovery call once its output item is
// done, and a done event holding the response Complete would return.
func (c *Client) Stream(ctx context.Context, req *model.Request) (model.Stream, error) {
	w, params, err := c.render(req)
	if err != nil {
		return nil, err
	}
	return &stream{sdk: c.sdk.Responses.NewStreaming(ctx, params), w: w}, nil
}

// stream adapts the SDK's server-sent events to model.Stream.
type stream struct {
	sdk     *ssestream.Stream[responses.ResponseStreamEventUnion]
	w       *wire
	pending []model.Event
	done    bool
	err     error
}

// Recv returns the next event, io.EOF after the done event, or the error
// that ended the stream.
func (s *stream) Recv() (model.Event, error) {
	for {
		if len(s.pending) > 0 {
			ev := s.pending[0]
			s.pending = s.pending[1:]
			return ev, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		if s.done {
			return nil, io.EOF
		}
		if !s.sdk.Next() {
			if err := s.sdk.Err(); err != nil {
				s.err = fmt.Errorf("openai: stream: %w", openaiwire.StreamError(err))
			} else {
				s.err = model.ErrStreamIncomplete
			}
			continue
		}
		if err := s.handle(s.sdk.Current()); err != nil {
			s.err = err
		}
	}
}

// handle turns one server event into model events.
func (s *stream) handle(ev responses.ResponseStreamEventUnion) error {
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		if ev.Delta != "" {
			s.pending = append(s.pending, &model.TextDeltaEvent{Text: ev.Delta})
		}
	case "response.output_item.done":
		parts, _, err := s.w.decodeItem(&ev.Item)
		if err != nil {
			return err
		}
		for _, p := range parts {
			switch p.Kind {
			case model.PartToolCall:
				s.pending = append(s.pending, &model.ToolCallEvent{Call: *p.ToolCall})
			case model.PartDiscoveryCall:
				s.pending = append(s.pending, &model.DiscoveryCallEvent{Call: *p.DiscoveryCall})
			}
		}
	case "response.completed", "response.incomplete", "response.failed":
		resp, err := s.w.decodeResponse(&ev.Response)
		if err != nil {
			return err
		}
		s.pending = append(s.pending, &model.DoneEvent{Response: resp})
		s.done = true
	case "error":
		e := ev.AsError()
		return &model.ProviderError{Provider: openaiwire.Provider, Type: e.Code, Message: e.Message}
	}
	return nil
}

// Close stops the stream.
func (s *stream) Close() error {
	if err := s.sdk.Close(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("openai: close stream: %w", err)
	}
	return nil
}
