package openaichat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

func chunk(delta, finish string) string {
	f := "null"
	if finish != "" {
		f = fmt.Sprintf("%q", finish)
	}
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":%q,"choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, chatModel, delta, f)
}

func callDelta(index int, id, name, args string) string {
	return fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]}`, index, id, name, args)
}

const usageChunk = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[],` + usageJSON + `}`

func collect(t *testing.T, s model.Stream) ([]model.Event, error) {
	t.Helper()
	defer func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}()
	var evs []model.Event
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

// TestStream checks text deltas, one event per call once the model moved
// past it (arguments split over chunks), and a done event equal to the
// response Complete returns for the same answer.
func TestStream(t *testing.T) {
	events := openaitest.SSE(true,
		chunk(`{"role":"assistant","content":"Let me "}`, ""),
		chunk(`{"content":"check."}`, ""),
		chunk(callDelta(0, "call_s1", "tool_search", `{"query":`), ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"look up a record\"}"}}]}`, ""),
		chunk(callDelta(1, "call_t", "get_time", `{"zone":"UTC"}`), ""),
		chunk(`{}`, "tool_calls"),
		usageChunk,
	)
	whole := completionJSON(`{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"call_s1","type":"function","function":{"name":"tool_search","arguments":"{\"query\":\"look up a record\"}"}},{"id":"call_t","type":"function","function":{"name":"get_time","arguments":"{\"zone\":\"UTC\"}"}}]}`, "tool_calls")
	api := newFakeAPI(t, openaitest.Reply{Body: events, SSE: true}, openaitest.Reply{Body: whole})
	c := api.client()
	req := openaitest.Prepare(t, c, chatModel, openaitest.Start(), openaitest.Catalog(t))
	s, err := c.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Event{
		&model.TextDeltaEvent{Text: "Let me "},
		&model.TextDeltaEvent{Text: "check."},
		&model.DiscoveryCallEvent{Call: model.DiscoveryCall{ID: "call_s1", Query: "look up a record"}},
		&model.ToolCallEvent{Call: model.ToolCall{ID: "call_t", Name: "get_time", Arguments: json.RawMessage(`{"zone":"UTC"}`)}},
	}
	if len(got) != len(want)+1 {
		t.Fatalf("got %d events, want %d", len(got), len(want)+1)
	}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	done, ok := got[len(want)].(*model.DoneEvent)
	if !ok {
		t.Fatalf("last event is %T", got[len(want)])
	}
	complete, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(complete, done.Response); diff != "" {
		t.Errorf("done response differs from Complete's (-complete +stream):\n%s", diff)
	}
	var body struct {
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(api.Body(0), &body); err != nil || !body.Stream || !body.StreamOptions.IncludeUsage {
		t.Errorf("streamed request: %s", api.Body(0))
	}
}

// TestStreamErrors checks streams that end in an error.
func TestStreamErrors(t *testing.T) {
	cases := []struct {
		name string
		body string
		is   error
		pe   *model.ProviderError
	}{
		{"no finish", openaitest.SSE(true, chunk(`{"content":"Hi"}`, "")), model.ErrStreamIncomplete, nil},
		{"error payload", openaitest.SSE(false, chunk(`{"content":"Hi"}`, ""), `{"error":{"message":"Overloaded","type":"server_error"}}`), nil,
			&model.ProviderError{Provider: "openai", Type: "server_error", Message: "Overloaded"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, openaitest.Reply{Body: tc.body, SSE: true})
			c := api.client()
			s, err := c.Stream(context.Background(), openaitest.Prepare(t, c, chatModel, openaitest.Start(), nil))
			if err != nil {
				t.Fatal(err)
			}
			_, err = collect(t, s)
			if tc.is != nil {
				if !errors.Is(err, tc.is) {
					t.Fatalf("error = %v, want %v", err, tc.is)
				}
				return
			}
			var pe *model.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *model.ProviderError", err)
			}
			got := *pe
			got.Err = nil
			if got != *tc.pe {
				t.Fatalf("provider error = %+v, want %+v", got, *tc.pe)
			}
		})
	}
}
