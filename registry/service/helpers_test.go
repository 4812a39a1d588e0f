package service_test

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

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/embeddedstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// recordsToolset is the toolset the tests publish, at the given version.
func recordsToolset(version string) tools.ToolsetSchema {
	return tools.ToolsetSchema{
		Name:        "records",
		Description: "Customer records",
		Version:     version,
		Tools: []tools.ToolSchema{{
			Name:        "records.lookup",
			Description: "Look up a record by id",
			Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","minLength":1},"tenant_id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
			Result:      json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			Contract:    &tools.Contract{ServerOnlyFields: []string{"tenant_id"}},
		}, {
			Name:        "records.search",
			Description: "Search records by keywords",
			Payload:     json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
		}},
	}
}

// harness is a registry service served on loopback with a client of it.
type harness struct {
	svc    *service.Service
	server *httptest.Server
	client *registry.Client
}

// newHarness serves the registry without credentials (WithInsecure), with
// a client that presents none; auth_test.go covers credentials.
func newHarness(t *testing.T, opts ...service.Option) *harness {
	t.Helper()
	svc, err := service.New(append([]service.Option{service.WithInsecure()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(svc.Handler())
	t.Cleanup(func() {
		server.Close()
		_ = svc.Close()
	})
	client, err := registry.NewClient(server.URL, registry.WithHTTPClient(server.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return &harness{svc: svc, server: server, client: client}
}

// provider is a provider endpoint on loopback whose executor answers with
// the record named in the payload, counting executions. While overloaded
// is positive it answers 503 and decrements it.
type provider struct {
	server     *httptest.Server
	executions atomic.Int64
	overloaded atomic.Int64
	mu         sync.Mutex
	answer     func(call *registry.CallRequest) (json.RawMessage, error) // nil: the default answer
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
	p.mu.Lock()
	answer := p.answer
	p.mu.Unlock()
	if answer != nil {
		return answer(call)
	}
	var args struct {
		ID string `json:"id"`
		Q  string `json:"q"`
	}
	if err := json.Unmarshal(call.Payload, &args); err != nil {
		return nil, err
	}
	if args.ID == "missing" {
		return nil, errors.New("no record missing")
	}
	return json.RawMessage(fmt.Sprintf(`{"name":"record %s%s"}`, args.ID, args.Q)), nil
}

func (p *provider) setAnswer(f func(call *registry.CallRequest) (json.RawMessage, error)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answer = f
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

// frozenClock is a test double for the service clock: it returns a fixed
// time that tests advance.
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

// memoryStore is the embedded store, in memory only, for services sharing
// one store.
func memoryStore() service.Store {
	st, err := embeddedstore.Open("")
	if err != nil {
		panic(err)
	}
	return st
}
