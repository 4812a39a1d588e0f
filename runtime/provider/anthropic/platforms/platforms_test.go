package platforms_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/vertex"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
)

// searchReply is a Messages API answer whose only call is a client-side
// tool search for "refund invoice".
const searchReply = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":` +
	`[{"type":"text","text":"Searching."},{"type":"tool_use","id":"toolu_d1","name":"tool_search","input":{"query":"refund invoice"}}]` +
	`,"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20}}`

// request prepares a request as the runtime does: one application tool,
// discovery on, a deferred catalog of one tool.
func request(t *testing.T, c *anthropic.Client, modelID string) *model.Request {
	t.Helper()
	req := &model.Request{
		Model: modelID,
		Messages: []model.Message{
			model.SystemMessage("You help with billing."),
			model.UserMessage("Refund invoice i1."),
		},
		Tools: []model.ToolDefinition{{
			Name:        "records.lookup",
			Description: "Look up a record by id",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
		}},
		Discovery:       model.Discovery{Enabled: true},
		MaxOutputTokens: 1024,
	}
	catalog, err := discovery.NewCatalog([]discovery.Entry{{Name: "billing.refund", Snapshot: model.ToolSnapshot{
		Name: "billing_refund", Description: "Refund an invoice",
		Parameters: json.RawMessage(`{"type":"object","properties":{"invoice":{"type":"string"}},"required":["invoice"]}`),
	}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), catalog); err != nil {
		t.Fatal(err)
	}
	return req
}

// platformDouble is a test double of a cloud platform's Claude endpoint
// (Amazon Bedrock's InvokeModel, Vertex AI's rawPredict) on a loopback
// httptest server: it records each request and answers with reply. The
// credentials the tests give the SDK are fake and never leave the machine.
type platformDouble struct {
	srv   *httptest.Server
	reply string
	mu    sync.Mutex
	reqs  []*http.Request
	body  [][]byte
}

func newPlatformDouble(t *testing.T, reply string) *platformDouble {
	d := &platformDouble{reply: reply}
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("read body: %v", err)
		}
		d.mu.Lock()
		d.reqs = append(d.reqs, r.Clone(context.Background()))
		d.body = append(d.body, b)
		d.mu.Unlock()
		w.Header().Set("content-type", "application/json")
		_, _ = io.WriteString(w, d.reply)
	}))
	t.Cleanup(d.srv.Close)
	return d
}

// TestPlatforms sends a native discovery request through the SDK's
// Bedrock and Vertex options and checks what each platform expects: the
// path naming the model, the API version in the body instead of a header,
// no model (and for Bedrock no stream) in the body, the platform's
// authorization, and native discovery (deferred tools, the search tool).
func TestPlatforms(t *testing.T) {
	reply := searchReply
	tests := []struct {
		name  string
		model string
		opts  func(url string) []option.RequestOption
		path  string
		auth  func(h http.Header) bool
	}{
		{
			name:  "bedrock invoke",
			model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
			opts: func(url string) []option.RequestOption {
				cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDFAKE", "fake-secret", "")}
				return []option.RequestOption{bedrock.WithConfig(cfg), option.WithBaseURL(url)}
			},
			path: "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke",
			auth: func(h http.Header) bool {
				a := h.Get("Authorization")
				return strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential=AKIDFAKE/") && strings.Contains(a, "/us-east-1/bedrock/aws4_request") && h.Get("X-Amz-Date") != ""
			},
		},
		{
			name:  "vertex rawPredict",
			model: "claude-sonnet-4-5@20250929",
			opts: func(url string) []option.RequestOption {
				creds := &google.Credentials{ProjectID: "test-project", TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "fake-token", TokenType: "Bearer"})}
				return []option.RequestOption{vertex.WithCredentials(context.Background(), "us-east5", "test-project", creds), option.WithBaseURL(url)}
			},
			path: "/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict",
			auth: func(h http.Header) bool { return h.Get("Authorization") == "Bearer fake-token" },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newPlatformDouble(t, reply)
			c := anthropic.New(anthropic.WithRequestOptions(append(tt.opts(d.srv.URL), option.WithMaxRetries(0))...))
			if c.Capabilities(tt.model).Discovery != model.DiscoveryNative {
				t.Fatalf("%s is not native", tt.model)
			}
			resp, err := c.Complete(context.Background(), request(t, c, tt.model))
			if err != nil {
				t.Fatal(err)
			}
			if calls := resp.DiscoveryCalls(); len(calls) != 1 || calls[0].Query != "refund invoice" {
				t.Fatalf("decoded discovery calls %+v", calls)
			}
			if len(d.reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(d.reqs))
			}
			r, body := d.reqs[0], d.body[0]
			if r.Method != http.MethodPost || r.URL.Path != tt.path {
				t.Errorf("%s %s, want POST %s", r.Method, r.URL.Path, tt.path)
			}
			if !tt.auth(r.Header) {
				t.Errorf("authorization headers %v", r.Header)
			}
			if v := r.Header.Get("anthropic-version"); v != "" {
				t.Errorf("anthropic-version header %q: the platform takes it in the body", v)
			}
			var b map[string]json.RawMessage
			if err := json.Unmarshal(body, &b); err != nil {
				t.Fatal(err)
			}
			if string(b["anthropic_version"]) != `"2026-10-21"` {
				t.Errorf("body anthropic_version %s, want the SDK's API version", b["anthropic_version"])
			}
			for _, k := range []string{"model", "stream"} {
				if _, ok := b[k]; ok {
					t.Errorf("body holds %q, which the platform takes from the path", k)
				}
			}
			if !strings.Contains(string(b["tools"]), `"defer_loading":true`) || !strings.Contains(string(b["tools"]), `"name":"tool_search"`) {
				t.Errorf("not native discovery: tools %s", b["tools"])
			}
		})
	}
}
