package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// chatDouble is a loopback test double of Chat Completions: it answers
// each request with the next scripted assistant message and keeps the
// request bodies.
type chatDouble struct {
	mu      sync.Mutex
	bodies  [][]byte
	replies []string
}

func (d *chatDouble) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.replies) == 0 {
		http.Error(w, "no reply left", http.StatusInternalServerError)
		return
	}
	d.bodies = append(d.bodies, body)
	msg, finish := d.replies[0], "tool_calls"
	if !strings.Contains(msg, "tool_calls") {
		finish = "stop"
	}
	d.replies = d.replies[1:]
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":%s,"finish_reason":%q,"logprobs":null}]}`, msg, finish)
}

func chatCalls(calls ...[3]string) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, fmt.Sprintf(`{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}`, c[0], c[1], c[2]))
	}
	return `{"role":"assistant","content":null,"tool_calls":[` + strings.Join(parts, ",") + `]}`
}

// TestConversationCatalogRun runs an agent registered with
// ConversationCatalog on the Chat Completions adapter: every request
// declares the same tools, the discovered tool is called through the
// dispatcher and runs, and dispatcher calls of an undiscovered tool, a
// tool the run's policy forbids, and arguments that do not match the
// discovered tool's schema are answered with error results, never run.
func TestConversationCatalogRun(t *testing.T) {
	double := &chatDouble{replies: []string{
		chatCalls([3]string{"s1", "tool_search", `{"names":["records_analyze"]}`}),
		chatCalls(
			[3]string{"c1", "call_tool", `{"name":"records_analyze","arguments":{"id":"r1"}}`},
			[3]string{"c2", "call_tool", `{"name":"records_search","arguments":{"id":"r1"}}`},
			[3]string{"c3", "call_tool", `{"name":"records_delete","arguments":{"id":"r1"}}`},
			[3]string{"c4", "call_tool", `{"name":"records_analyze","arguments":{"id":5}}`},
		),
		`{"role":"assistant","content":"Revenue is up."}`,
	}}
	srv := httptest.NewServer(double)
	defer srv.Close()
	client := openaichat.New(openaichat.WithBaseURL(srv.URL), openaichat.WithAPIKey("test-key"))
	rt, exec := newRecordsRuntime(t, client, func(reg *runtime.AgentRegistration) {
		reg.ConversationCatalog = true
		reg.Policy = runtime.Policy{DenyTools: []tools.Ident{"records.delete"}}
	})
	out, err := rt.Client("assistant").Run(context.Background(), userSays("How is revenue?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Final.Text() != "Revenue is up." {
		t.Fatalf("final %q", out.Final.Text())
	}
	results := toolResults(out.Messages)
	if r := results["c1"]; r.IsError || r.Name != "records_analyze" {
		t.Errorf("c1: %+v, want the result of records_analyze", r)
	}
	for _, id := range []string{"c2", "c3", "c4"} {
		if r := results[id]; !r.IsError {
			t.Errorf("%s: %+v, want an error result", id, r)
		}
	}
	if n := exec.count(); n != 1 {
		t.Errorf("%d tool executions, want 1", n)
	}
	records := 0
	for _, m := range out.Messages {
		if _, ok := m.Meta["catalog"]; ok {
			records++
		}
	}
	if records != 1 {
		t.Errorf("%d messages carry a catalog record, want 1", records)
	}
	if n := bytes.Count(double.bodies[2], []byte("Tool catalog: 1 tool.")); n != 1 {
		t.Errorf("the last request holds the catalog message %d times, want once", n)
	}
	var first json.RawMessage
	for i, body := range double.bodies {
		var req struct {
			Tools json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = req.Tools
			if !bytes.Contains(first, []byte(`"call_tool"`)) {
				t.Fatalf("the first request does not declare the dispatcher:\n%s", first)
			}
			continue
		}
		if !bytes.Equal(first, req.Tools) {
			t.Errorf("request %d declares other tools than request 1", i+1)
		}
	}
}
