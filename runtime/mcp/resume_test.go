package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// resumingServer serves, over streamable HTTP on loopback, an SDK server of
// protocol version 2025-11-25 with an event store, so that each call's SSE
// stream opens with a priming event. Its tool "slow" ends its own stream
// mid-call (after the priming event, with a retry field of 10ms) and then
// answers, so the answer reaches a client only through a resumed stream.
// resumes counts the GETs that carry a Last-Event-ID.
func resumingServer(t *testing.T) (url string, resumes func() int) {
	server := sdk.NewServer(&sdk.Implementation{Name: "resuming", Version: "1"}, &sdk.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
	server.AddTool(&sdk.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		req.Extra.CloseSSEStream(sdk.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
	})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{EventStore: sdk.NewMemoryEventStore(nil)})
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") != "" {
			mu.Lock()
			n++
			mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() int { mu.Lock(); defer mu.Unlock(); return n }
}

// TestHTTPResumesAStreamEndedMidCall checks that a call whose stream the
// server ends after a priming event gets its answer through a resumed
// stream (GET with Last-Event-ID), and that a transport that never resumes
// fails the call instead.
func TestHTTPResumesAStreamEndedMidCall(t *testing.T) {
	for _, c := range []struct {
		name    string
		retries int
		resumed bool
	}{
		{"default retries", 0, true},
		{"one retry", 1, true},
		{"no retries", -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			url, resumes := resumingServer(t)
			tr := mcp.HTTP(url, nil)
			tr.StreamRetries = c.retries
			s := connect(t, "resuming", tr)
			res, err := s.Call(context.Background(), "slow", nil)
			if !c.resumed {
				if err == nil {
					t.Fatalf("Call answered %v through a transport that never resumes", res.Content)
				}
				if resumes() != 0 {
					t.Errorf("%d resumptions, want none", resumes())
				}
				return
			}
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if got := res.Content[0].(*sdk.TextContent).Text; got != "done" {
				t.Errorf("slow answered %q, want done", got)
			}
			if resumes() == 0 {
				t.Error("the answer came without a resumed stream: the server did not end it")
			}
		})
	}
}

// TestHTTPStreamRetriesAreBounded checks that resuming a stream that
// makes no progress stops after StreamRetries resumptions in a row and fails
// the call, instead of looping: every resumed stream replays only the event
// it resumed from and ends.
func TestHTTPStreamRetriesAreBounded(t *testing.T) {
	url, _ := resumingServer(t)
	var mu sync.Mutex
	resumes := 0
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("Last-Event-ID"); r.Method == http.MethodGet && id != "" {
			mu.Lock()
			resumes++
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "id: %s\nretry: 5\ndata:\n\n", id)
			return
		}
		proxy(w, r, url)
	}))
	t.Cleanup(stuck.Close)
	tr := mcp.HTTP(stuck.URL, nil)
	tr.StreamRetries = 2
	s := connect(t, "resuming", tr)
	_, err := s.Call(context.Background(), "slow", nil)
	if ce := (*mcp.CallError)(nil); !errors.As(err, &ce) || ce.Kind != mcp.CallConnectionLost {
		t.Fatalf("Call: %v, want a lost connection", err)
	}
	mu.Lock()
	defer mu.Unlock()
	// The first resumption reads the stream's first event id (progress);
	// the two after it read nothing new.
	if resumes != 3 {
		t.Errorf("%d resumptions, want 3", resumes)
	}
}

// proxy forwards r to the server at url and copies its answer to w.
func proxy(w http.ResponseWriter, r *http.Request, url string) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, url, r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	res, err := http.DefaultClient.Do(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	flusher, _ := w.(http.Flusher)
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			w.Write(buf[:n])
			if flusher != nil {
				flusher.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}
