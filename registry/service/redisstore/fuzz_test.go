package redisstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// FuzzClusterHandler posts arbitrary bodies to every route of a node on the
// Redis store with leases, the renewal included: it never fails
// internally, answers every refusal with an error body, and a refused
// request changes nothing another node reads.
func FuzzClusterHandler(f *testing.F) {
	token := `"reg1-0000000000000000000000000000000000000000000000000000000000000000"`
	publishBody, _ := json.Marshal(registry.PublishRequest{Toolset: notesToolset("notes", "1"), Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
	f.Add(uint8(0), publishBody)
	f.Add(uint8(1), []byte(`{"toolsets":[{"name":"notes"}]}`))
	f.Add(uint8(2), []byte(`{"toolset":"notes","token":`+token+`}`))
	f.Add(uint8(3), []byte(`{"call_id":"c1","tool":"notes.get","token":`+token+`,"payload":{"id":"a"}}`))
	f.Add(uint8(4), []byte(`{"toolset":"notes","token":`+token+`}`))
	routes := []string{registry.PathToolsets, registry.PathResolve, registry.PathWithdraw, registry.PathCalls, registry.PathRenew}
	_, rdb := newMini(f)
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		ctx := context.Background()
		name := fmt.Sprintf("fuzz%d", n.Add(1))
		opts := []service.Option{service.WithMaxBodyBytes(1 << 16), service.WithProviderLease(time.Minute)}
		node, other := newNode(t, rdb, name, opts...), newNode(t, rdb, name, opts...)
		seed, err := node.Publish(ctx, &registry.PublishRequest{Toolset: notesToolset("notes", "0"), Revision: "seed", Endpoint: "http://127.0.0.1:1/"})
		if err != nil {
			t.Fatal(err)
		}
		before, err := other.ListToolsets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, routes[int(route)%len(routes)], bytes.NewReader(body))
		node.Handler().ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusBadGateway && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d for %s: %s", rec.Code, req.URL.Path, rec.Body)
		}
		if rec.Code < 300 {
			return
		}
		var eb registry.ErrorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &eb); err != nil || eb.Error == nil || eb.Error.Message == "" {
			t.Fatalf("status %d without an error body: %s", rec.Code, rec.Body)
		}
		after, err := other.ListToolsets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if after.Generation != before.Generation || after.Toolsets[0].Token != seed.Registration.Token {
			t.Fatalf("refused request (%d %s) changed the registry", rec.Code, eb.Error.Code)
		}
	})
}
