package openaiwire

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestStreamError(t *testing.T) {
	se := &ssestream.StreamError{Message: "received error while streaming", Event: ssestream.Event{Data: []byte(`{"error":{"message":"Overloaded","code":"server_busy"}}`)}}
	var pe *model.ProviderError
	if err := StreamError(fmt.Errorf("read: %w", se)); !errors.As(err, &pe) || pe.Type != "server_busy" || pe.Message != "Overloaded" || !errors.Is(err, se) {
		t.Fatalf("StreamError = %#v", err)
	}
	raw := &ssestream.StreamError{Message: "received error while streaming: oops", Event: ssestream.Event{Data: []byte(`{"error":"oops"}`)}}
	if err := StreamError(raw); !errors.As(err, &pe) || pe.Message != raw.Message {
		t.Fatalf("StreamError of an unstructured error = %#v", err)
	}
	if err := StreamError(context.Canceled); err != context.Canceled {
		t.Fatalf("StreamError(context.Canceled) = %v", err)
	}
}
