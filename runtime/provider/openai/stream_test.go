package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func textDelta(s string) string {
	return fmt.Sprintf(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":%q,"sequence_number":1}`, s)
}

func itemDone(item string) string {
	return `{"type":"response.output_item.done","output_index":1,"sequence_number":2,"item":` + item + `}`
}

func completed(body string) string {
	return `{"type":"response.completed","sequence_number":3,"response":` + body + `}`
}

const textAndSearchItem = `{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Let me check.","annotations":[]}]}`

// collect reads a stream to its end.
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

// TestStream checks the events of streamed answers: text deltas, one
// complete event per call, and a done event with the response Complete
// returns for the same output.
func TestStream(t *testing.T) {
	cases := []struct {
		name  string
		model string
		final string
		extra []string // events before completion
		want  []model.Event
	}{
		{"native discovery", nativeModel, responseJSON(nativeModel, textAndSearchItem, searchCallItem),
			[]string{textDelta("Let me "), textDelta("check."), itemDone(textAndSearchItem), itemDone(searchCallItem)},
			[]model.Event{&model.TextDeltaEvent{Text: "Let me "}, &model.TextDeltaEvent{Text: "check."},
				&model.DiscoveryCallEvent{Call: model.DiscoveryCall{ID: "call_s1", Query: "look up a record"}}}},
		{"emulated discovery", emulatedModel, responseJSON(emulatedModel, emuSearchItem),
			[]string{itemDone(emuSearchItem)},
			[]model.Event{&model.DiscoveryCallEvent{Call: model.DiscoveryCall{ID: "call_s1", Query: "look up a record"}}}},
		{"tool call", nativeModel, responseJSON(nativeModel, `{"type":"function_call","id":"fc_2","call_id":"call_t","name":"get_time","arguments":"{\"zone\":\"UTC\"}","status":"completed"}`),
			[]string{itemDone(`{"type":"function_call","id":"fc_2","call_id":"call_t","name":"get_time","arguments":"{\"zone\":\"UTC\"}","status":"completed"}`)},
			[]model.Event{&model.ToolCallEvent{Call: model.ToolCall{ID: "call_t", Name: "get_time", Arguments: json.RawMessage(`{"zone":"UTC"}`)}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			events := append(append([]string{}, tc.extra...), completed(tc.final))
			api := newFakeAPI(t, reply{Body: sse(events...), SSE: true}, reply{Body: tc.final})
			c := api.client()
			req := prepare(t, c, tc.model, start(), testCatalog(t))
			s, err := c.Stream(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := collect(t, s)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("no events")
			}
			done, ok := got[len(got)-1].(*model.DoneEvent)
			if !ok {
				t.Fatalf("last event is %T, want *model.DoneEvent", got[len(got)-1])
			}
			if diff := cmp.Diff(tc.want, got[:len(got)-1]); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			whole, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(whole, done.Response); diff != "" {
				t.Errorf("done response differs from Complete's (-complete +stream):\n%s", diff)
			}
			var body map[string]any
			if err := json.Unmarshal(api.body(0), &body); err != nil || body["stream"] != true {
				t.Errorf("streamed request does not ask for a stream: %s", api.body(0))
			}
		})
	}
}

// TestStreamErrors checks streams that end in an error.
func TestStreamErrors(t *testing.T) {
	cases := []struct {
		name string
		rep  reply
		want model.ProviderError
		is   error
	}{
		{"error event", reply{SSE: true, Body: sse(textDelta("Hi"), `{"type":"error","code":"server_error","message":"The model crashed","param":null,"sequence_number":2}`)},
			model.ProviderError{Provider: "openai", Type: "server_error", Message: "The model crashed"}, nil},
		{"failed response", reply{SSE: true, Body: sse(`{"type":"response.failed","sequence_number":1,"response":{"id":"r","status":"failed","output":[],"error":{"code":"rate_limit_exceeded","message":"Slow down"}}}`)},
			model.ProviderError{Provider: "openai", Type: "rate_limit_exceeded", Message: "Slow down"}, nil},
		{"http error", reply{Status: http.StatusServiceUnavailable, Body: `{"error":{"message":"Overloaded","type":"server_error"}}`},
			model.ProviderError{Provider: "openai", StatusCode: 503, Type: "server_error", Message: "Overloaded", RequestID: "req_test_1"}, nil},
		{"cut short", reply{SSE: true, Body: sse(textDelta("Hi"))}, model.ProviderError{}, model.ErrStreamIncomplete},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newFakeAPI(t, tc.rep)
			c := api.client()
			s, err := c.Stream(context.Background(), prepare(t, c, nativeModel, start(), testCatalog(t)))
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
				t.Fatalf("error %v (%T) is not a *model.ProviderError", err, err)
			}
			got := *pe
			got.Err = nil
			if got != tc.want {
				t.Errorf("provider error = %+v, want %+v", got, tc.want)
			}
		})
	}
}
