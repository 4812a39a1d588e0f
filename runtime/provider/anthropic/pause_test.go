package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestPauseTurnContinued checks that a turn paused mid-search is continued
// by sending its content back as the assistant turn, as it came, and that
// the answer is the whole turn, from Complete and from Stream alike.
func TestPauseTurnContinued(t *testing.T) {
	paused := messageReply("pause_turn", `[`+thinkingBlock+`,`+serverToolUse+`]`)
	finished := messageReply("end_turn", `[`+toolSearchResult+`,{"type":"text","text":"No refund is needed."}]`)
	rec, err := json.Marshal(nativeRecord{ServerToolUse: json.RawMessage(serverToolUse), ToolSearchResult: json.RawMessage(toolSearchResult)})
	if err != nil {
		t.Fatal(err)
	}
	want := model.AssistantMessage(
		model.ReasoningPart(model.Reasoning{Text: "The user wants a refund."}, Provider, []byte(thinkingBlock)),
		model.Part{Kind: model.PartDiscoveryCall, DiscoveryCall: &model.DiscoveryCall{ID: "srvtoolu_1", Names: []string{"billing_refund"}, Query: "refund invoice", Hosted: true}, Meta: map[string]json.RawMessage{Provider: rec}},
		model.TextPart("No refund is needed."),
	)
	for _, streaming := range []bool{false, true} {
		name := "complete"
		if streaming {
			name = "stream"
		}
		t.Run(name, func(t *testing.T) {
			replies := []reply{paused, finished}
			if streaming {
				replies = []reply{sseOf(t, paused), sseOf(t, finished)}
			}
			api := newFakeAPI(t, replies...)
			c := api.client(WithHostedSearch(SearchBM25))
			req := request(t, c, nativeModel, opening())
			var resp *model.Response
			if streaming {
				s, err := c.Stream(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				if resp, err = model.Drain(s); err != nil {
					t.Fatal(err)
				}
			} else if resp, err = c.Complete(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, resp.Message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if resp.FinishReason != model.FinishStop {
				t.Errorf("finish %q, want stop", resp.FinishReason)
			}
			if resp.Usage.OutputTokens != 40 {
				t.Errorf("output tokens %d, want both responses' 40", resp.Usage.OutputTokens)
			}
			if n := api.requests(); n != 2 {
				t.Fatalf("%d requests, want 2", n)
			}
			var body struct {
				Messages []struct {
					Role    string            `json:"role"`
					Content []json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(api.body(1), &body); err != nil {
				t.Fatal(err)
			}
			last := body.Messages[len(body.Messages)-1]
			if last.Role != "assistant" || len(last.Content) != 2 || !jsonEqual(t, last.Content[0], thinkingBlock) || !jsonEqual(t, last.Content[1], serverToolUse) {
				t.Errorf("continuation ends with %s %s, want the paused content as it came", last.Role, last.Content)
			}
		})
	}
}

// TestPauseTurnLimit checks that a turn still paused after
// MaxPauseContinuations continuations fails with ErrPaused.
func TestPauseTurnLimit(t *testing.T) {
	replies := make([]reply, MaxPauseContinuations+1)
	for i := range replies {
		replies[i] = messageReply("pause_turn", `[`+strings.ReplaceAll(serverToolUse, "srvtoolu_1", "srvtoolu_"+string(rune('a'+i)))+`]`)
	}
	api := newFakeAPI(t, replies...)
	c := api.client(WithHostedSearch(SearchBM25))
	_, err := c.Complete(context.Background(), request(t, c, nativeModel, opening()))
	if !errors.Is(err, ErrPaused) {
		t.Fatalf("error %v, want ErrPaused", err)
	}
	if n := api.requests(); n != MaxPauseContinuations+1 {
		t.Errorf("%d requests, want %d", n, MaxPauseContinuations+1)
	}
}

func jsonEqual(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return cmp.Equal(a, b)
}

// sseOf streams a whole-message reply: each block starts complete and
// stops, then the stop reason and usage of the message follow.
func sseOf(t *testing.T, r reply) reply {
	t.Helper()
	var msg struct {
		Content    []json.RawMessage `json:"content"`
		StopReason string            `json:"stop_reason"`
	}
	if err := json.Unmarshal([]byte(r.body), &msg); err != nil {
		t.Fatal(err)
	}
	events := []string{messageStart}
	for i, b := range msg.Content {
		events = append(events,
			`{"type":"content_block_start","index":`+itoa(i)+`,"content_block":`+string(b)+`}`,
			`{"type":"content_block_stop","index":`+itoa(i)+`}`)
	}
	return sse(t, append(events, messageEnd(msg.StopReason)...)...)
}

func itoa(i int) string { return strconv.Itoa(i) }
