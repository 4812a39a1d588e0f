package model

import (
	"errors"
	"fmt"
	"io"
)

// Event is one streaming event: *TextDeltaEvent, *ToolCallEvent,
// *DiscoveryCallEvent or *DoneEvent.
type Event interface {
	isEvent()
}

// TextDeltaEvent carries the next piece of the assistant's text.
type TextDeltaEvent struct {
	// Text is the new text.
	Text string
}

// ToolCallEvent carries a tool call once the model has finished it.
type ToolCallEvent struct {
	// Call is the complete call.
	Call ToolCall
}

// DiscoveryCallEvent carries a discovery call as one complete event, sent
// when the model finishes it.
type DiscoveryCallEvent struct {
	// Call is the complete call.
	Call DiscoveryCall
}

// DoneEvent ends a stream with the complete response, the same one
// Client.Complete would have returned.
type DoneEvent struct {
	// Response is the complete response.
	Response *Response
}

func (*TextDeltaEvent) isEvent()     {}
func (*ToolCallEvent) isEvent()      {}
func (*DiscoveryCallEvent) isEvent() {}
func (*DoneEvent) isEvent()          {}

// Stream delivers a model's answer as events. Recv returns events in order,
// ending with one *DoneEvent, after which it returns io.EOF. Close releases
// the stream; it is safe to call at any time and more than once.
type Stream interface {
	// Recv returns the next event, io.EOF after the DoneEvent, or the error
	// that ended the stream.
	Recv() (Event, error)
	// Close stops the stream and releases its resources.
	Close() error
}

// ErrStreamIncomplete is returned by Drain for a stream that ended without
// a DoneEvent.
var ErrStreamIncomplete = errors.New("model: stream ended without a done event")

// ErrStreamAfterDone is returned by Drain for a stream that sends an event
// after its DoneEvent, which no response would hold.
var ErrStreamAfterDone = errors.New("model: stream event after the done event")

// Drain reads s to its end, closes it, and returns the response of its
// DoneEvent. A stream that ends without a DoneEvent holding a response
// fails with ErrStreamIncomplete, one that sends an event after it with
// ErrStreamAfterDone.
func Drain(s Stream) (resp *Response, err error) {
	defer func() {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close stream: %w", cerr)
		}
	}()
	done := false
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			if resp == nil {
				return nil, ErrStreamIncomplete
			}
			return resp, nil
		}
		if err != nil {
			return nil, err
		}
		if done {
			return nil, fmt.Errorf("%w: %T", ErrStreamAfterDone, ev)
		}
		if d, ok := ev.(*DoneEvent); ok {
			if d.Response == nil {
				return nil, fmt.Errorf("%w: the done event holds no response", ErrStreamIncomplete)
			}
			resp, done = d.Response, true
		}
	}
}
