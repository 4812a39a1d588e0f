package emulation

import "github.com/goa-discovery/goa-discovery/runtime/model"

// Stream returns s with its events completed as Finish completes a
// response: tool call events name the tools dispatcher calls name, and the
// DoneEvent's response carries the catalog record.
func (c *Conversation) Stream(s model.Stream) model.Stream { return &stream{Stream: s, c: c} }

type stream struct {
	model.Stream
	c *Conversation
}

// Recv returns the next event of the underlying stream, completed.
func (s *stream) Recv() (model.Event, error) {
	ev, err := s.Stream.Recv()
	switch e := ev.(type) {
	case *model.ToolCallEvent:
		e.Call = s.c.Call(e.Call)
	case *model.DoneEvent:
		s.c.Finish(e.Response)
	}
	return ev, err
}
