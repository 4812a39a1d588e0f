package openaiwire

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Receiver is the receiving half that both adapters' streams share: the
// SDK's server-sent events, the model events made from them and not yet
// returned, and how the stream ended. An adapter's stream embeds it and
// answers model.Stream's Recv with [Receiver.Recv] and its own handling.
type Receiver[T any] struct {
	// SDK is the stream of server events.
	SDK *ssestream.Stream[T]
	// Pending are the events made and not yet returned, oldest first.
	Pending []model.Event
	// Done is set once the done event is pending: after it, Recv returns
	// io.EOF.
	Done bool
	// Err is the error that ended the stream, returned once the pending
	// events have been.
	Err error
}

// Recv returns the next pending event, io.EOF after the done event, or the
// error that ended the stream. While nothing is pending it reads the next
// server event and hands it to handle, which appends events to Pending and
// sets Done. When the server's stream ends without an error before Done,
// end settles it: it may add the last events and set Done, and its error
// ends the stream. A server error is reported as "<provider>: stream: ...".
func (r *Receiver[T]) Recv(provider string, handle func(T) error, end func() error) (model.Event, error) {
	for {
		if len(r.Pending) > 0 {
			ev := r.Pending[0]
			r.Pending = r.Pending[1:]
			return ev, nil
		}
		if r.Err != nil {
			return nil, r.Err
		}
		if r.Done {
			return nil, io.EOF
		}
		if !r.SDK.Next() {
			if err := r.SDK.Err(); err != nil {
				r.Err = fmt.Errorf("%s: stream: %w", provider, StreamError(err))
			} else {
				r.Err = end()
			}
			continue
		}
		if err := handle(r.SDK.Current()); err != nil {
			r.Err = err
		}
	}
}

// Stop closes the server's stream; a cancelled context is not an error.
func (r *Receiver[T]) Stop(provider string) error {
	if err := r.SDK.Close(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: close stream: %w", provider, err)
	}
	return nil
}
