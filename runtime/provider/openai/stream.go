package openai

import (
	"context"

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
	s := &stream{Receiver: openaiwire.Receiver[responses.ResponseStreamEventUnion]{SDK: c.sdk.Responses.NewStreaming(ctx, params)}, w: w}
	if w.conv != nil {
		return w.conv.Stream(s), nil
	}
	return s, nil
}

// stream adapts the SDK's server-sent events to model.Stream.
type stream struct {
	openaiwire.Receiver[responses.ResponseStreamEventUnion]
	w *wire
}

// Recv returns the next event, io.EOF after the done event, or the error
// that ended the stream; a stream that stops before the response completes
// ends with model.ErrStreamIncomplete.
func (s *stream) Recv() (model.Event, error) {
	return s.Receiver.Recv("openai", s.handle, func() error { return model.ErrStreamIncomplete })
}

// handle turns one server event into model events.
func (s *stream) handle(ev responses.ResponseStreamEventUnion) error {
	switch ev.Type {
	case "response.output_text.delta", "response.refusal.delta":
		if ev.Delta != "" {
			s.Pending = append(s.Pending, &model.TextDeltaEvent{Text: ev.Delta})
		}
	case "response.output_item.done":
		parts, _, err := s.w.decodeItem(&ev.Item)
		if err != nil {
			return err
		}
		for _, p := range parts {
			switch p.Kind {
			case model.PartToolCall:
				s.Pending = append(s.Pending, &model.ToolCallEvent{Call: *p.ToolCall})
			case model.PartDiscoveryCall:
				s.Pending = append(s.Pending, &model.DiscoveryCallEvent{Call: *p.DiscoveryCall})
			}
		}
	case "response.completed", "response.incomplete", "response.failed":
		resp, err := s.w.decodeResponse(&ev.Response)
		if err != nil {
			return err
		}
		s.Pending = append(s.Pending, &model.DoneEvent{Response: resp})
		s.Done = true
	case "error":
		e := ev.AsError()
		return &model.ProviderError{Provider: openaiwire.Provider, Type: e.Code, Message: e.Message}
	}
	return nil
}

// Close stops the stream.
func (s *stream) Close() error { return s.Stop("openai") }
