package openai

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3/option"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// reply is one scripted answer of fakeAPI.
type reply struct {
	status int
	// body is a response object, an error body, or SSE text when sse is set.
	body string
	sse  bool
}

// fakeAPI is a test double of the Responses API on a loopback httptest
// server: it records every request body and answers with the scripted
// replies in order.
type fakeAPI struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	bodies  [][]byte
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
	if r.URL.Path != "/responses" {
		f.t.Errorf("request to %s, want /responses", r.URL.Path)
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	n := len(f.bodies)
	f.mu.Unlock()
	if n > len(f.replies) {
		f.t.Errorf("request %d has no scripted reply", n)
		http.Error(w, `{"error":{"message":"no reply","type":"server_error"}}`, http.StatusInternalServerError)
		return
	}
	rep := f.replies[n-1]
	w.Header().Set("x-request-id", fmt.Sprintf("req_test_%d", n))
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

// client returns a Client talking to the fake, without retries.
func (f *fakeAPI) client(opts ...Option) *Client {
	base := []Option{WithBaseURL(f.srv.URL), WithAPIKey("test-key"), WithRequestOptions(option.WithMaxRetries(0))}
	return New(append(base, opts...)...)
}

// requests returns how many requests the fake received.
func (f *fakeAPI) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

// body returns the i-th request body.
func (f *fakeAPI) body(i int) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.bodies) {
		f.t.Fatalf("request %d was not sent (%d sent)", i, len(f.bodies))
	}
	return f.bodies[i]
}

// checkGolden compares a request body, indented, with testdata/name.json
// (rewritten with -update).
func checkGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		t.Fatalf("%s: request body is not JSON: %v\n%s", name, err, body)
	}
	buf.WriteByte('\n')
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("%s: request body differs from %s (-want +got):\n%s", name, path, diff)
	}
}
