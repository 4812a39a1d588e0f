package anthropic

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/goa-discovery/goa-discovery/internal/golden"
)

// reply is one scripted answer of fakeAPI.
type reply struct {
	status int
	// body is a JSON message, an error body, or SSE text when sse is set.
	body string
	sse  bool
}

// fakeAPI is a test double of the Messages API on a loopback httptest
// server: it records every request body and answers with the scripted
// replies in order.
type fakeAPI struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
	replies []reply
}

func newFakeAPI(t *testing.T, replies ...reply) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("read request body: %v", err)
	}
	if r.URL.Path != "/v1/messages" {
		f.t.Errorf("request to %s, want /v1/messages", r.URL)
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.headers = append(f.headers, r.Header.Clone())
	n := len(f.bodies)
	f.mu.Unlock()
	if n > len(f.replies) {
		f.t.Errorf("request %d has no scripted reply", n)
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"no reply"}}`, http.StatusInternalServerError)
		return
	}
	rep := f.replies[n-1]
	w.Header().Set("request-id", "req_test_"+string(rune('0'+n)))
	if rep.sse {
		w.Header().Set("content-type", "text/event-stream")
	} else {
		w.Header().Set("content-type", "application/json")
	}
	status := rep.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, rep.body)
}

// client returns a Client talking to the fake.
func (f *fakeAPI) client(opts ...Option) *Client {
	base := WithRequestOptions(option.WithBaseURL(f.srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	return New(append([]Option{base}, opts...)...)
}

// body returns the i-th recorded request body.
func (f *fakeAPI) body(i int) []byte {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.bodies) {
		f.t.Fatalf("request %d was not sent (%d sent)", i, len(f.bodies))
	}
	return f.bodies[i]
}

// header returns the headers of the i-th recorded request.
func (f *fakeAPI) header(i int) http.Header {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.headers) {
		f.t.Fatalf("request %d was not sent (%d sent)", i, len(f.headers))
	}
	return f.headers[i]
}

// requests returns how many requests were sent.
func (f *fakeAPI) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// checkGolden compares a request body with testdata/<name>.json, which holds
// it indented: keys, order and values are the bytes the SDK sent.
func checkGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	golden.JSON(t, filepath.Join("testdata", name+".json"), body)
}
