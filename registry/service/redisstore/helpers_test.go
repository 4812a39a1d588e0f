package redisstore_test

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

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/registry/service/redisstore"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// notesToolset is the toolset the tests publish, at the given version.
func notesToolset(name, version string) tools.ToolsetSchema {
	return tools.ToolsetSchema{
		Name:        name,
		Description: "Notes",
		Version:     version,
		Tools: []tools.ToolSchema{{
			Name:        tools.Ident(name + ".get"),
			Description: "Get a note by id",
			Payload:     json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
			Result:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		}},
	}
}

// provider is a provider endpoint on loopback that answers with the note
// named in the payload and counts executions per call ID. While gate is
// set, executions wait for it to close.
type provider struct {
	url string
	mu  sync.Mutex
	ran map[string]int
	// gate, when not nil, holds executions until it closes.
	gate  chan struct{}
	total atomic.Int64
	// busy, while positive, is how many calls are answered overloaded
	// before any runs.
	busy atomic.Int64
}

func newProvider(t testing.TB) *provider {
	t.Helper()
	p := &provider{ran: make(map[string]int)}
	srv := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(p.execute), 0))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

func (p *provider) execute(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
	if p.busy.Add(-1) >= 0 {
		return nil, registry.Errorf(registry.CodeOverloaded, "busy")
	}
	p.busy.Store(0)
	p.mu.Lock()
	p.ran[call.CallID]++
	gate := p.gate
	p.mu.Unlock()
	p.total.Add(1)
	if gate != nil {
		<-gate
	}
	var args struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(call.Payload, &args); err != nil {
		return nil, err
	}
	return json.RawMessage(fmt.Sprintf(`{"text":"note %s"}`, args.ID)), nil
}

func (p *provider) executions(callID string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ran[callID]
}

// newMini returns a miniredis, closed when the test ends, and a client of it.
func newMini(t testing.TB) (*miniredis.Miniredis, *redis.Client) {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	return m, rdb
}

// newNode returns a registry service on the Redis store of registry name.
func newNode(t testing.TB, rdb redis.UniversalClient, name string, opts ...service.Option) *service.Service {
	t.Helper()
	return newNodeOf(t, rdb, name, nil, opts...)
}

// newNodeOf returns a registry service on the Redis store of registry
// name, opened with the store options sopts.
func newNodeOf(t testing.TB, rdb redis.UniversalClient, name string, sopts []redisstore.Option, opts ...service.Option) *service.Service {
	t.Helper()
	st, err := redisstore.New(rdb, name, sopts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	svc, err := service.New(append([]service.Option{service.WithStore(st), service.WithInsecure()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	return svc
}

func publish(t testing.TB, pub registry.Publisher, p *provider, name, version, revision string) registry.Registration {
	t.Helper()
	res, err := pub.Publish(context.Background(), &registry.PublishRequest{Toolset: notesToolset(name, version), Revision: revision, Endpoint: p.url})
	if err != nil {
		t.Fatal(err)
	}
	return res.Registration
}

// get is a call to NAME.get for id under token.
func get(callID, toolset string, token registry.Token, id string) *registry.CallRequest {
	return &registry.CallRequest{CallID: callID, Tool: tools.Ident(toolset + ".get"), Token: token, Payload: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))}
}

// wantCode fails unless err is a registry error with the given code.
func wantCode(t testing.TB, err error, code registry.Code) {
	t.Helper()
	if !errors.Is(err, &registry.Error{Code: code}) {
		t.Fatalf("error = %v, want code %s", err, code)
	}
}

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// waitABit lets other goroutines run: the tests wait for a state that they
// poll for, never for a length of time that must suffice.
func waitABit() { time.Sleep(5 * time.Millisecond) }

// waitFor polls ok until it holds, failing the test after 30 seconds.
func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
