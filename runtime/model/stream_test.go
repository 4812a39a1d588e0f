package model

import (
	"errors"
	"io"
	"testing"
)

// scriptedStream is a test double that replays prepared events.
type scriptedStream struct {
	events []Event
	err    error // returned after the events instead of io.EOF, if set
	closed int
}

func (s *scriptedStream) Recv() (Event, error) {
	if len(s.events) == 0 {
		if s.err != nil {
			return nil, s.err
		}
		return nil, io.EOF
	}
	ev := s.events[0]
	s.events = s.events[1:]
	return ev, nil
}

func (s *scriptedStream) Close() error { s.closed++; return nil }

func TestDrain(t *testing.T) {
	final, err := NewResponse(AssistantMessage(TextPart("hi"), DiscoveryCallPart(DiscoveryCall{ID: "d", Query: "q"})), FinishStop, Usage{})
	if err != nil {
		t.Fatal(err)
	}
	broken := errors.New("connection reset")
	cases := []struct {
		name    string
		stream  *scriptedStream
		wantErr error
	}{
		{"complete", &scriptedStream{events: []Event{&TextDeltaEvent{Text: "h"}, &TextDeltaEvent{Text: "i"}, &DiscoveryCallEvent{Call: DiscoveryCall{ID: "d", Query: "q"}}, &DoneEvent{Response: final}}}, nil},
		{"no done event", &scriptedStream{events: []Event{&TextDeltaEvent{Text: "h"}}}, ErrStreamIncomplete},
		{"transport error", &scriptedStream{events: []Event{&TextDeltaEvent{Text: "h"}}, err: broken}, broken},
		{"done event without a response", &scriptedStream{events: []Event{&DoneEvent{}}}, ErrStreamIncomplete},
		{"text after the done event", &scriptedStream{events: []Event{&DoneEvent{Response: final}, &TextDeltaEvent{Text: "!"}}}, ErrStreamAfterDone},
		{"two done events", &scriptedStream{events: []Event{&DoneEvent{Response: final}, &DoneEvent{Response: final}}}, ErrStreamAfterDone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Drain(tc.stream)
			if tc.stream.closed != 1 {
				t.Fatalf("stream closed %d times, want 1", tc.stream.closed)
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Drain error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != final {
				t.Fatalf("Drain = %v, %v; want the done event's response", got, err)
			}
		})
	}
}
