package registry

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// scriptedRegistry is a test double of a registry server: each request is
// answered by the handler for its path.
func scriptedRegistry(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL+"/", WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientRefusesAnswersOutsideTheProtocol(t *testing.T) {
	good := resolvedRecords(t, "r1")
	tamperedFP := good
	tamperedFP.Toolset.Description = "changed after fingerprinting"
	tamperedToken := good
	tamperedToken.Revision = "r2"
	invalid := good
	invalid.Toolset.Tools = nil
	// A record that fingerprints consistently but that no publish could
	// have passed: its pagination partner is not in the toolset.
	dangling := resolvedRecords(t, "r1")
	dangling.Toolset.Tools[0].Contract = &tools.Contract{PaginationPartner: "records.more"}
	dangling.Fingerprint, _ = tools.ToolsetFingerprint(&dangling.Toolset)
	dangling.Token = NewToken(dangling.Fingerprint, dangling.Revision)
	cases := []struct {
		name    string
		status  int
		body    any
		wantErr error
		errPart string
	}{
		{"fingerprint does not match content", 200, Catalog{Toolsets: []ResolvedToolset{tamperedFP}}, ErrBadResponse, "its content gives"},
		{"token does not match revision", 200, Catalog{Toolsets: []ResolvedToolset{tamperedToken}}, ErrBadResponse, "give reg1-"},
		{"invalid record", 200, Catalog{Toolsets: []ResolvedToolset{invalid}}, ErrBadResponse, "has no tools"},
		{"dangling pagination partner", 200, Catalog{Toolsets: []ResolvedToolset{dangling}}, ErrBadResponse, `pagination partner "records.more"`},
		{"another toolset", 200, Catalog{Toolsets: []ResolvedToolset{good, good}}, ErrBadResponse, "2 toolsets resolved, 1 asked for"},
		{"error body", 409, ErrorBody{Error: Errorf(CodeVersionMismatch, "pinned 9")}, ErrVersionMismatch, "pinned 9"},
		{"error without body", 500, "oops", ErrBadResponse, "status 500"},
		{"malformed body", 200, "{", ErrBadResponse, "unexpected end of JSON input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != PathResolve {
					t.Errorf("path %s", r.URL.Path)
				}
				w.WriteHeader(tc.status)
				if s, ok := tc.body.(string); ok {
					_, _ = w.Write([]byte(s))
					return
				}
				_ = json.NewEncoder(w).Encode(tc.body)
			})
			_, err := c.ResolveToolsets(context.Background(), []ToolsetRef{{Name: "records"}})
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.errPart) {
				t.Fatalf("ResolveToolsets error = %v, want %v containing %q", err, tc.wantErr, tc.errPart)
			}
		})
	}
}

func TestClientResolutionChecks(t *testing.T) {
	good := resolvedRecords(t, "r1")
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, 200, Catalog{Generation: 3, Toolsets: []ResolvedToolset{good}})
	})
	ctx := context.Background()
	cases := []struct {
		name    string
		refs    []ToolsetRef
		errPart string
	}{
		{"matches", []ToolsetRef{{Name: "records", Version: "1.0.0"}}, ""},
		{"other name", []ToolsetRef{{Name: "billing"}}, `toolset 0 is "records", asked for "billing"`},
		{"other version", []ToolsetRef{{Name: "records", Version: "2.0.0"}}, `resolved at version "1.0.0", pinned "2.0.0"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := c.ResolveToolsets(ctx, tc.refs)
			if tc.errPart == "" {
				if err != nil || cat.Generation != 3 {
					t.Fatalf("ResolveToolsets = %+v, %v", cat, err)
				}
				return
			}
			if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), tc.errPart) {
				t.Fatalf("ResolveToolsets error = %v, want ErrBadResponse containing %q", err, tc.errPart)
			}
		})
	}
	if _, err := c.ListToolsets(ctx); err != nil {
		t.Fatalf("ListToolsets: %v", err)
	}
}

func TestClientListMustBeSortedAndDistinct(t *testing.T) {
	good := resolvedRecords(t, "r1")
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, 200, Catalog{Toolsets: []ResolvedToolset{good, good}})
	})
	if _, err := c.ListToolsets(context.Background()); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("ListToolsets with a toolset twice = %v, want ErrBadResponse", err)
	}
}

func TestClientWhenTheRegistryFails(t *testing.T) {
	ctx := context.Background()
	t.Run("connection cut mid-answer", func(t *testing.T) {
		c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"generation":1,"toolsets":[`))
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		})
		_, err := c.ListToolsets(ctx)
		if !errors.Is(err, ErrUnreachable) {
			t.Fatalf("ListToolsets = %v, want ErrUnreachable", err)
		}
	})
	t.Run("registry gone", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		c, err := NewClient(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		srv.Close()
		_, err = c.ResolveToolsets(ctx, []ToolsetRef{{Name: "records"}})
		if !errors.Is(err, ErrUnreachable) {
			t.Fatalf("ResolveToolsets = %v, want ErrUnreachable", err)
		}
	})
	t.Run("oversized answer", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(strings.Repeat(" ", DefaultMaxBodyBytes+1)))
		}))
		defer srv.Close()
		c, err := NewClient(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListToolsets(ctx); !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "exceeds 4194304 bytes") {
			t.Fatalf("ListToolsets = %v, want ErrBadResponse for size", err)
		}
	})
	t.Run("response limit below the registry's answers", func(t *testing.T) {
		if _, err := NewClient("http://127.0.0.1:1", WithMaxResponseBytes(DefaultMaxBodyBytes-1)); err == nil || !strings.Contains(err.Error(), "DefaultMaxBodyBytes") {
			t.Fatalf("NewClient with a small response limit: %v", err)
		}
	})
}

func TestClientCallRetries(t *testing.T) {
	tok := resolvedRecords(t, "r1").Token
	call := &CallRequest{CallID: "c1", Tool: "records.lookup", Token: tok, Payload: json.RawMessage(`{"id":"a"}`)}
	var attempts atomic.Int64
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		var got CallRequest
		if err := DecodeRequest(r.Body, DefaultMaxBodyBytes, &got); err != nil || got.CallID != "c1" || got.Token != tok {
			t.Errorf("retry changed the call: %+v %v", got, err)
		}
		if attempts.Add(1) < 3 {
			WriteError(w, Errorf(CodeOverloaded, "busy"))
			return
		}
		WriteJSON(w, 200, CallResult{CallID: "c1", Tool: "records.lookup", Token: tok, Result: json.RawMessage(`{"ok":true}`)})
	})
	if _, err := c.CallResolvedTool(context.Background(), call); !errors.Is(err, ErrOverloaded) {
		t.Fatalf("call without retries = %v, want ErrOverloaded", err)
	}
	retrying, err := NewClient(c.base, WithHTTPClient(c.http), WithCallRetries(2, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	attempts.Store(0)
	res, err := retrying.CallResolvedTool(context.Background(), call)
	if err != nil || string(res.Result) != `{"ok":true}` || attempts.Load() != 3 {
		t.Fatalf("call with retries = %+v, %v after %d attempts", res, err, attempts.Load())
	}
}

func TestClientRefusesAResultForAnotherCall(t *testing.T) {
	tok := resolvedRecords(t, "r1").Token
	c := scriptedRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, 200, CallResult{CallID: "other", Tool: "records.lookup", Token: tok})
	})
	_, err := c.CallResolvedTool(context.Background(), &CallRequest{CallID: "c1", Tool: "records.lookup", Token: tok, Payload: json.RawMessage(`{}`)})
	if !errors.Is(err, ErrBadResponse) {
		t.Fatalf("CallResolvedTool = %v, want ErrBadResponse", err)
	}
}

func TestNewClientRejects(t *testing.T) {
	cases := []struct {
		url  string
		opts []ClientOption
	}{
		{"", nil},
		{"ftp://registry", nil},
		{"http://registry?x=1", nil},
		{"http://registry", []ClientOption{WithMaxResponseBytes(0)}},
		{"http://registry", []ClientOption{WithCallRetries(-1, 0)}},
	}
	for _, tc := range cases {
		if _, err := NewClient(tc.url, tc.opts...); err == nil {
			t.Errorf("NewClient(%q) accepted", tc.url)
		}
	}
}

// TestBearerTokenNeedsHTTPSOrLoopback: a client with a bearer token is
// refused at construction when a node is plain http on a host that is not
// loopback, unless the caller opts in; nothing is sent, since NewClient
// makes no request.
func TestBearerTokenNeedsHTTPSOrLoopback(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	cases := []struct {
		url      string
		failover []string
		opts     []ClientOption
		refused  bool
	}{
		{url: "http://registry.internal", refused: true},
		{url: "http://10.0.0.5:8080", refused: true},
		{url: "https://127.0.0.1", failover: []string{"http://registry.internal"}, refused: true},
		{url: "http://registry.internal", opts: []ClientOption{WithPlainHTTPTokens()}},
		{url: "https://registry.internal"},
		{url: "http://127.0.0.1:8080"},
		{url: "http://[::1]:8080"},
		{url: "http://localhost:8080"},
		{url: "http://registry.localhost:8080"},
	}
	for _, tc := range cases {
		opts := append([]ClientOption{WithBearerToken(token), WithFailover(tc.failover...)}, tc.opts...)
		_, err := NewClient(tc.url, opts...)
		if tc.refused != (err != nil) || (err != nil && !strings.Contains(err.Error(), "WithPlainHTTPTokens")) {
			t.Errorf("NewClient(%s, failover %v) = %v, want refused %v", tc.url, tc.failover, err, tc.refused)
		}
		if _, err := NewClient(tc.url, WithFailover(tc.failover...)); err != nil {
			t.Errorf("NewClient(%s) without a token = %v", tc.url, err)
		}
	}
}
