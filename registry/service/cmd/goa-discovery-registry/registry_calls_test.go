package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestRegistryCallsOutcomeUnknown: a call whose provider read it and cut
// the connection without answering may have run. "registry serve --data"
// never sends it again, also once stopped and started again, and "registry
// calls --pending" lists it as outcome_unknown. On the code before, the
// embedded store listed it as pending and a retry sent it again.
func TestRegistryCallsOutcomeUnknown(t *testing.T) {
	ctx := context.Background()
	var received atomic.Int64
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = conn.Close() // the call was read; its answer never comes
		}
	}))
	defer provider.Close()
	data := filepath.Join(t.TempDir(), "data")
	args := []string{"--allow-endpoint", provider.URL, "--data", data}
	url, _, _, stop := startRegistryOutput(t, args...)
	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := client.Publish(ctx, &registry.PublishRequest{
		Toolset:  tools.ToolsetSchema{Name: "notes", Version: "1.0.0", Description: "Notes", Tools: []tools.ToolSchema{{Name: "notes.add", Description: "Add a note", Payload: json.RawMessage(`{"type":"object"}`)}}},
		Revision: "build-1",
		Endpoint: provider.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	call := &registry.CallRequest{CallID: "n1", Tool: "notes.add", Token: pub.Registration.Token, Payload: json.RawMessage(`{}`)}
	if _, err := client.CallResolvedTool(ctx, call); !errors.Is(err, registry.ErrCallOutcomeUnknown) {
		t.Fatalf("call whose answer was cut: %v, want call_outcome_unknown", err)
	}
	if code := stop(); code != 0 {
		t.Fatalf("registry serve exited with %d", code)
	}

	url, _, _, stop = startRegistryOutput(t, args...)
	defer stop()
	client, err = registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CallResolvedTool(ctx, call); !errors.Is(err, registry.ErrCallOutcomeUnknown) {
		t.Fatalf("retry after a restart: %v, want call_outcome_unknown", err)
	}
	creds := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(creds, []byte(cliTestToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli("calls", "--pending", "--url", url, "--credentials-file", creds)
	if code != 0 || !regexp.MustCompile(`(?m)^n1 +notes\.add +outcome_unknown `).MatchString(out) {
		t.Fatalf("registry calls --pending: exit %d\n%s%s\nwant n1 outcome_unknown", code, out, errOut)
	}
	if n := received.Load(); n != 1 {
		t.Fatalf("the provider received the call %d times, want once", n)
	}
}
