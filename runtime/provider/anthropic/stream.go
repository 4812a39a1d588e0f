package anthropic

import (
	"errors"
	"fmt"
	"io"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// stream adapts the SDK's event stream to model.Stream. It accumulates the
// message with the SDK and decodes each content block when it stops, with
// the decoder Complete uses, so the done event holds the same response.
type stream struct {
	sdk *ssestream.Stream[anthropic.BetaRawMessageStreamEventUnion]
	// open starts the stream of the turn's next response.
	open func(*pausedTurn) *ssestream.Stream[anthropic.BetaRawMessageStreamEventUnion]
	turn pausedTurn
	acc  anthropic.BetaMessage
	dec  *blockDecoder
	// inputs are the tool input deltas of the open blocks, by index: the
	// SDK's accumulator replaces input that is not JSON with {}.
	inputs map[int64][]byte
	// decoded counts the blocks handed to the decoder.
	decoded int
	queue   []model.Event
	done    bool
	err     error
	// finish, when set, completes the response of the done event (the
	// request's tool change record).
	finish func(*model.Response)
}

func newStream(open func(*pausedTurn) *ssestream.Stream[anthropic.BetaRawMessageStreamEventUnion], dec *blockDecoder) *stream {
	s := &stream{open: open, dec: dec, inputs: make(map[int64][]byte)}
	s.sdk = open(&s.turn)
	return s
}

// Recv returns the next event.
func (s *stream) Recv() (model.Event, error) {
	for len(s.queue) == 0 {
		if s.err != nil {
			return nil, s.err
		}
		if s.done {
			return nil, io.EOF
		}
		if !s.sdk.Next() {
			if err := s.sdk.Err(); err != nil {
				s.err = providerError(err)
			} else {
				s.err = fmt.Errorf("%s: %w", Provider, model.ErrStreamIncomplete)
			}
			continue
		}
		if err := s.handle(s.sdk.Current()); err != nil {
			s.err = err
		}
	}
	ev := s.queue[0]
	s.queue = s.queue[1:]
	return ev, nil
}

func (s *stream) handle(ev anthropic.BetaRawMessageStreamEventUnion) error {
	if err := s.acc.Accumulate(ev); err != nil {
		return fmt.Errorf("%s: stream: %w", Provider, err)
	}
	switch ev.Type {
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			if ev.Delta.Text != "" {
				s.queue = append(s.queue, &model.TextDeltaEvent{Text: ev.Delta.Text})
			}
		case "input_json_delta":
			s.inputs[ev.Index] = append(s.inputs[ev.Index], ev.Delta.PartialJSON...)
		}
	case "content_block_stop":
		return s.decodeThrough(int(ev.Index) + 1)
	case "message_stop":
		if err := s.decodeThrough(len(s.acc.Content)); err != nil {
			return err
		}
		done, err := s.turn.add(&s.acc)
		if err != nil {
			return err
		}
		if !done {
			return s.continueTurn()
		}
		for _, p := range s.dec.finish() {
			s.emit(p)
		}
		resp, err := s.dec.build(&s.acc)
		if err != nil {
			return err
		}
		if s.finish != nil {
			s.finish(resp)
		}
		s.queue = append(s.queue, &model.DoneEvent{Response: resp})
		s.done = true
	}
	return nil
}

// continueTurn streams the next response of a paused turn into the same
// decoder.
func (s *stream) continueTurn() error {
	if err := s.sdk.Close(); err != nil {
		return fmt.Errorf("%s: close paused stream: %w", Provider, err)
	}
	s.acc = anthropic.BetaMessage{}
	s.inputs = make(map[int64][]byte)
	s.decoded = 0
	s.sdk = s.open(&s.turn)
	return nil
}

// decodeThrough decodes the accumulated blocks before index n not yet
// decoded, emitting the calls they complete.
func (s *stream) decodeThrough(n int) error {
	for ; s.decoded < n && s.decoded < len(s.acc.Content); s.decoded++ {
		b := s.acc.Content[s.decoded]
		input, ok := s.inputs[int64(s.decoded)]
		if !ok {
			input = b.Input
		}
		p, err := s.dec.add(b, input)
		if err != nil {
			return err
		}
		s.emit(p)
	}
	return nil
}

func (s *stream) emit(p *model.Part) {
	switch {
	case p == nil:
	case p.Kind == model.PartToolCall:
		s.queue = append(s.queue, &model.ToolCallEvent{Call: *p.ToolCall})
	case p.Kind == model.PartDiscoveryCall:
		s.queue = append(s.queue, &model.DiscoveryCallEvent{Call: *p.DiscoveryCall})
	}
}

// Close stops the stream.
func (s *stream) Close() error {
	if s.sdk == nil {
		return nil
	}
	err := s.sdk.Close()
	s.sdk = nil
	if s.err == nil && !s.done {
		s.err = errors.New("anthropic: stream closed")
	}
	if err != nil {
		return fmt.Errorf("%s: close stream: %w", Provider, err)
	}
	return nil
}
