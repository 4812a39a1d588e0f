package embeddedstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// The service's tests against the embedded store's files: a toolset, a
// provider of it and a clock, as package service's tests have them.

// recordsToolset is the toolset the tests publish, at the given version.
func recordsToolset(version string) tools.ToolsetSchema {
	return tools.ToolsetSchema{
		Name:        "records",
		Description: "Customer records",
		Version:     version,
		Tools: []tools.ToolSchema{{
			Name:        "records.lookup",
			Description: "Look up a record by id",
			Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","minLength":1}},"required":["id"],"additionalProperties":false}`),
			Result:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		}},
	}
}

// provider is a provider endpoint on loopback whose executor answers with
// the record named in the payload, counting executions. While overloaded
// is positive it answers 503 and decrements it.
type provider struct {
	server     *httptest.Server
	executions atomic.Int64
	overloaded atomic.Int64
}

func newProvider(t *testing.T) *provider {
	t.Helper()
	p := &provider{}
	p.server = httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(p.execute), 0))
	t.Cleanup(p.server.Close)
	return p
}

func (p *provider) execute(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
	if p.overloaded.Add(-1) >= 0 {
		return nil, registry.Errorf(registry.CodeOverloaded, "busy")
	}
	p.overloaded.Store(0)
	p.executions.Add(1)
	var args struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(call.Payload, &args); err != nil {
		return nil, err
	}
	return json.RawMessage(fmt.Sprintf(`{"name":"record %s"}`, args.ID)), nil
}

// publish publishes the records toolset at version under revision, served
// by p, and returns its registration.
func publish(t *testing.T, pub registry.Publisher, p *provider, version, revision string) registry.Registration {
	t.Helper()
	res, err := pub.Publish(context.Background(), &registry.PublishRequest{Toolset: recordsToolset(version), Revision: revision, Endpoint: p.server.URL + "/tools"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Registration
}

// lookup is a call to records.lookup for id under token.
func lookup(callID string, token registry.Token, id string) *registry.CallRequest {
	return &registry.CallRequest{CallID: callID, Tool: "records.lookup", Token: token, Payload: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))}
}

// wantCode fails unless err is a registry error with the given code.
func wantCode(t *testing.T, err error, code registry.Code) {
	t.Helper()
	if !errors.Is(err, &registry.Error{Code: code}) {
		t.Fatalf("error = %v, want code %s", err, code)
	}
}

// frozenClock is the service's clock in a test: a fixed time that the
// test advances.
type frozenClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *frozenClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *frozenClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
