package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Reply is one scripted answer of a Server.
type Reply struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Body is a JSON body, or server-sent events when SSE is set.
	Body string
	// SSE marks Body as an event stream.
	SSE bool
}

// Server is a test double of the OpenAI API on a loopback httptest server:
// it records every request body sent to its one path and answers with the
// scripted replies in order, each with an x-request-id of "req_test_N".
type Server struct {
	t       testing.TB
	srv     *httptest.Server
	path    string
	mu      sync.Mutex
	bodies  [][]byte
	replies []Reply
	headers []http.Header
}

// New starts a server for path ("/responses", "/chat/completions"),
// closed when the test ends.
func New(t testing.TB, path string, replies ...Reply) *Server {
	t.Helper()
	s := &Server{t: t, path: path, replies: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the server's base URL.
func (s *Server) URL() string { return s.srv.URL }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("read request body: %v", err)
	}
	if r.URL.Path != s.path {
		s.t.Errorf("request to %s, want %s", r.URL.Path, s.path)
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.headers = append(s.headers, r.Header.Clone())
	n := len(s.bodies)
	s.mu.Unlock()
	if n > len(s.replies) {
		s.t.Errorf("request %d has no scripted reply", n)
		http.Error(w, `{"error":{"message":"no reply","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	rep := s.replies[n-1]
	w.Header().Set("x-request-id", fmt.Sprintf("req_test_%d", n))
	if rep.SSE {
		w.Header().Set("content-type", "text/event-stream")
	} else {
		w.Header().Set("content-type", "application/json")
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, rep.Body)
}

// Requests returns how many requests the server received.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Header returns the headers of the i-th request (from 0).
func (s *Server) Header(i int) http.Header {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.headers) {
		s.t.Fatalf("request %d was not sent (%d sent)", i, len(s.headers))
	}
	return s.headers[i]
}

// Body returns the i-th request body (from 0).
func (s *Server) Body(i int) []byte {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		s.t.Fatalf("request %d was not sent (%d sent)", i, len(s.bodies))
	}
	return s.bodies[i]
}

// SSE renders server-sent events, each a JSON object; the event name is the
// object's "type", or none when it has no type (Chat Completions chunks).
// done appends the "[DONE]" sentinel.
func SSE(done bool, events ...string) string {
	var b strings.Builder
	for _, e := range events {
		var head struct{ Type string }
		if err := json.Unmarshal([]byte(e), &head); err != nil {
			panic(fmt.Sprintf("event %s: %v", e, err))
		}
		if head.Type != "" {
			fmt.Fprintf(&b, "event: %s\n", head.Type)
		}
		fmt.Fprintf(&b, "data: %s\n\n", e)
	}
	if done {
		b.WriteString("data: [DONE]\n\n")
	}
	return b.String()
}
