package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// recorded reads the responses under testdata/responses, written in the
// documented shapes of the Messages API.
func recorded(t *testing.T, names ...string) []reply {
	t.Helper()
	out := make([]reply, len(names))
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "responses", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = reply{body: string(b)}
	}
	return out
}

// TestRecordedConversations plays the responses of testdata/responses
// through the adapter: client search with thinking, hosted search finished
// in one response, and hosted search paused and continued. Every request
// body is kept as a golden file, so the conformance check holds them too.
func TestRecordedConversations(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		replies  []string
		requests int
		final    string
	}{
		{"client_search", nil, []string{"client_search", "call", "answer"}, 3, "Invoice i1 is refunded."},
		{"hosted_finished", []Option{WithHostedSearch(SearchBM25)}, []string{"hosted_finished"}, 1,
			"I can refund invoices with billing_refund; tell me which invoice and I will do it."},
		{"hosted_paused", []Option{WithHostedSearch(SearchRegex)}, []string{"hosted_paused", "hosted_continued", "answer"}, 3, "Invoice i1 is refunded."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, recorded(t, tt.replies...)...)
			c := api.client(tt.opts...)
			history := runLoop(t, c, nativeModel, 5)
			last := history[len(history)-1]
			if last.Role != model.RoleAssistant || last.Text() != tt.final {
				t.Fatalf("the conversation ends with %s %q, want the answer %q", last.Role, last.Text(), tt.final)
			}
			if n := api.requests(); n != tt.requests {
				t.Fatalf("%d requests, want %d", n, tt.requests)
			}
			for i := range tt.requests {
				checkGolden(t, fmt.Sprintf("recorded_%s_request%d", tt.name, i+1), api.body(i))
			}
			if err := model.ValidateMessages(history); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRecordedSearchQueriesAndUsage plays recorded-shape hosted searches,
// from Complete and from Stream: the query (BM25) or the pattern (regex)
// the model searched stays beside the names the provider loaded, and the
// reasoning tokens are the API's output_tokens_details.thinking_tokens,
// summed over the responses of a paused and continued turn (139 + 53).
func TestRecordedSearchQueriesAndUsage(t *testing.T) {
	tests := []struct {
		name    string
		search  HostedSearch
		replies []string
		calls   []model.DiscoveryCall
		usage   model.Usage
	}{
		{"bm25 paused and continued", SearchBM25, []string{"hosted_weather_paused", "hosted_weather_continued"},
			[]model.DiscoveryCall{{ID: "srvtoolu_01Hk7vN2mQ9xRt4cLw6sPz8D", Names: []string{"get_weather", "get_forecast"}, Query: "weather current conditions San Francisco", Hosted: true}},
			model.Usage{InputTokens: 1462 + 2035 + 1462, OutputTokens: 187 + 96, CacheReadTokens: 1462, ReasoningTokens: 139 + 53}},
		{"regex finished in one response", SearchRegex, []string{"hosted_regex_thinking"},
			[]model.DiscoveryCall{{ID: "srvtoolu_01Nc4xW7vK2mRt8cLp5sQz3F", Names: []string{"get_weather"}, Query: "(?i)weather|forecast", Hosted: true}},
			model.Usage{InputTokens: 1470, OutputTokens: 121, ReasoningTokens: 64}},
	}
	for _, tt := range tests {
		for _, streaming := range []bool{false, true} {
			name := tt.name + "/complete"
			if streaming {
				name = tt.name + "/stream"
			}
			t.Run(name, func(t *testing.T) {
				replies := recorded(t, tt.replies...)
				if streaming {
					for i, r := range replies {
						replies[i] = sseWithUsage(t, r)
					}
				}
				api := newFakeAPI(t, replies...)
				c := api.client(WithHostedSearch(tt.search))
				req := request(t, c, nativeModel, opening())
				var resp *model.Response
				var err error
				if streaming {
					s, serr := c.Stream(context.Background(), req)
					if serr != nil {
						t.Fatal(serr)
					}
					resp, err = model.Drain(s)
				} else {
					resp, err = c.Complete(context.Background(), req)
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.calls, resp.DiscoveryCalls()); diff != "" {
					t.Errorf("discovery calls (-want +got):\n%s", diff)
				}
				if resp.Usage != tt.usage {
					t.Errorf("usage %+v, want %+v", resp.Usage, tt.usage)
				}
			})
		}
	}
}

// sseWithUsage streams a whole-message reply the way the API does: the
// message starts with its input usage, each block starts complete and
// stops, and the message delta carries the stop reason and the output
// usage with its details.
func sseWithUsage(t *testing.T, r reply) reply {
	t.Helper()
	var msg struct {
		Content    []json.RawMessage `json:"content"`
		StopReason string            `json:"stop_reason"`
		Usage      map[string]any    `json:"usage"`
	}
	if err := json.Unmarshal([]byte(r.body), &msg); err != nil {
		t.Fatal(err)
	}
	delta := map[string]any{"output_tokens": msg.Usage["output_tokens"], "output_tokens_details": msg.Usage["output_tokens_details"]}
	start := map[string]any{}
	for k, v := range msg.Usage {
		start[k] = v
	}
	start["output_tokens"] = 1
	delete(start, "output_tokens_details")
	startJSON, _ := json.Marshal(start)
	deltaJSON, _ := json.Marshal(delta)
	events := []string{`{"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":` + string(startJSON) + `}}`}
	for i, b := range msg.Content {
		events = append(events,
			`{"type":"content_block_start","index":`+itoa(i)+`,"content_block":`+string(b)+`}`,
			`{"type":"content_block_stop","index":`+itoa(i)+`}`)
	}
	events = append(events,
		`{"type":"message_delta","delta":{"stop_reason":"`+msg.StopReason+`","stop_sequence":null},"usage":`+string(deltaJSON)+`}`,
		`{"type":"message_stop"}`)
	return sse(t, events...)
}
