package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// sse renders events as a server-sent event stream; each event's type is
// read from its "type" field.
func sse(t *testing.T, events ...string) reply {
	t.Helper()
	var b strings.Builder
	for _, e := range events {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(e), &head); err != nil {
			t.Fatalf("bad event %s: %v", e, err)
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", head.Type, e)
	}
	return reply{body: b.String(), sse: true}
}

const messageStart = `{"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":1,"cache_read_input_tokens":80,"cache_creation_input_tokens":10}}}`

func messageEnd(stop string) []string {
	return []string{
		`{"type":"message_delta","delta":{"stop_reason":"` + stop + `","stop_sequence":null},"usage":{"output_tokens":20}}`,
		`{"type":"message_stop"}`,
	}
}

// collect drains a stream, returning its events before the done event and
// the done event's response.
func collect(t *testing.T, s model.Stream) ([]model.Event, *model.Response) {
	t.Helper()
	defer s.Close()
	var events []model.Event
	for {
		ev, err := s.Recv()
		if errors.Is(err, io.EOF) {
			t.Fatal("stream ended without a done event")
		}
		if err != nil {
			t.Fatalf("recv: %v", err)
		}
		if done, ok := ev.(*model.DoneEvent); ok {
			if _, err := s.Recv(); !errors.Is(err, io.EOF) {
				t.Fatalf("after done: %v, want io.EOF", err)
			}
			return events, done.Response
		}
		events = append(events, ev)
	}
}

// TestStream streams answers from the local server: text deltas, a tool
// call whose input arrives in pieces, a client discovery call, and a hosted
// search that is one discovery-call event once its result arrives. The
// done event holds what Complete returns for the same answer.
func TestStream(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		events   []string
		complete reply
		want     []model.Event
	}{
		{
			name: "text and a tool call",
			events: append([]string{messageStart,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me "}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"look."}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"records_lookup","input":{}}}`,
				`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"id\": "}}`,
				`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"r1\"}"}}`,
				`{"type":"content_block_stop","index":1}`,
			}, messageEnd("tool_use")...),
			complete: messageReply("tool_use", `[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_1","name":"records_lookup","input":{"id":"r1"}}]`),
			want: []model.Event{
				&model.TextDeltaEvent{Text: "Let me "},
				&model.TextDeltaEvent{Text: "look."},
				&model.ToolCallEvent{Call: model.ToolCall{ID: "toolu_1", Name: "records.lookup", Arguments: json.RawMessage(`{"id":"r1"}`)}},
			},
		},
		{
			name: "client discovery call",
			events: append([]string{messageStart,
				`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_d1","name":"tool_search","input":{}}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":"}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"refund invoice\"}"}}`,
				`{"type":"content_block_stop","index":0}`,
			}, messageEnd("tool_use")...),
			complete: messageReply("tool_use", `[{"type":"tool_use","id":"toolu_d1","name":"tool_search","input":{"query":"refund invoice"}}]`),
			want:     []model.Event{&model.DiscoveryCallEvent{Call: model.DiscoveryCall{ID: "toolu_d1", Query: "refund invoice"}}},
		},
		{
			name: "hosted search",
			opts: []Option{WithHostedSearch(SearchBM25)},
			events: append([]string{messageStart,
				`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25","input":{}}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"refund invoice\"}"}}`,
				`{"type":"content_block_stop","index":0}`,
				`{"type":"content_block_start","index":1,"content_block":` + toolSearchResult + `}`,
				`{"type":"content_block_stop","index":1}`,
				`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_c1","name":"billing_refund","input":{}}}`,
				`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"invoice\":\"i1\"}"}}`,
				`{"type":"content_block_stop","index":2}`,
			}, messageEnd("tool_use")...),
			complete: messageReply("tool_use", hostedBlocks),
			want: []model.Event{
				&model.DiscoveryCallEvent{Call: model.DiscoveryCall{ID: "srvtoolu_1", Names: []string{"billing_refund"}, Query: "refund invoice", Hosted: true}},
				&model.ToolCallEvent{Call: model.ToolCall{ID: "toolu_c1", Name: "billing_refund", Arguments: json.RawMessage(`{"invoice":"i1"}`)}},
			},
		},
		{
			name: "cut-off tool input is kept verbatim",
			events: append([]string{messageStart,
				`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"records_lookup","input":{}}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"id\": \"r"}}`,
				`{"type":"content_block_stop","index":0}`,
			}, messageEnd("max_tokens")...),
			want: []model.Event{
				&model.ToolCallEvent{Call: model.ToolCall{ID: "toolu_1", Name: "records.lookup", MalformedArguments: `{"id": "r`}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			replies := []reply{sse(t, tt.events...)}
			if tt.complete.body != "" {
				replies = append(replies, tt.complete)
			}
			api := newFakeAPI(t, replies...)
			c := api.client(tt.opts...)
			s, err := c.Stream(context.Background(), request(t, c, nativeModel, opening()))
			if err != nil {
				t.Fatal(err)
			}
			events, streamed := collect(t, s)
			if diff := cmp.Diff(tt.want, events); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			var body map[string]any
			if err := json.Unmarshal(api.body(0), &body); err != nil || body["stream"] != true {
				t.Errorf("streaming request does not ask for a stream: %s", api.body(0))
			}
			if tt.complete.body == "" {
				return
			}
			completed, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(completed, streamed); diff != "" {
				t.Errorf("streamed response differs from the completed one (-complete +stream):\n%s", diff)
			}
		})
	}
}

// TestStreamErrors checks a stream that reports an error event and one
// that ends before message_stop.
func TestStreamErrors(t *testing.T) {
	t.Run("error event", func(t *testing.T) {
		api := newFakeAPI(t, sse(t, messageStart, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
		c := api.client()
		s, err := c.Stream(context.Background(), request(t, c, nativeModel, opening()))
		if err != nil {
			t.Fatal(err)
		}
		_, err = model.Drain(s)
		var pe *model.ProviderError
		if !errors.As(err, &pe) || pe.Type != "overloaded_error" || pe.Message != "Overloaded" {
			t.Fatalf("error %v, want the provider's overloaded_error", err)
		}
	})
	t.Run("cut off", func(t *testing.T) {
		api := newFakeAPI(t, sse(t, messageStart, `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
		c := api.client()
		s, err := c.Stream(context.Background(), request(t, c, nativeModel, opening()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := model.Drain(s); !errors.Is(err, model.ErrStreamIncomplete) {
			t.Fatalf("error %v, want model.ErrStreamIncomplete", err)
		}
	})
}
