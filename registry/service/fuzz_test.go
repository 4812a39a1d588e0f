package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// FuzzHandler posts arbitrary bodies to every route of a registry: it never
// fails internally (no 5xx), answers every refusal with an error body, and
// a request that is refused changes nothing.
func FuzzHandler(f *testing.F) {
	publishBody, _ := json.Marshal(registry.PublishRequest{Toolset: recordsToolset("1.0.0"), Revision: "r1", Endpoint: "http://127.0.0.1:1/"})
	f.Add(uint8(0), publishBody)
	f.Add(uint8(1), []byte(`{"toolsets":[{"name":"records","version":"1.0.0"}]}`))
	f.Add(uint8(2), []byte(`{"toolset":"records","token":"reg1-0000000000000000000000000000000000000000000000000000000000000000"}`))
	f.Add(uint8(3), []byte(`{"call_id":"c1","tool":"records.lookup","token":"reg1-0000000000000000000000000000000000000000000000000000000000000000","payload":{"id":"a"}}`))
	routes := []string{registry.PathToolsets, registry.PathResolve, registry.PathWithdraw, registry.PathCalls}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		svc, err := service.New(service.WithLoopbackEndpoints(), service.WithMaxBodyBytes(1<<16), service.WithInsecure())
		if err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		ctx := context.Background()
		// A registration the request may try to change.
		seed, err := svc.Publish(ctx, &registry.PublishRequest{Toolset: recordsToolset("0.1.0"), Revision: "seed", Endpoint: "http://127.0.0.1:1/"})
		if err != nil {
			t.Fatal(err)
		}
		before, err := svc.ListToolsets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, routes[int(route)%len(routes)], bytes.NewReader(body))
		svc.Handler().ServeHTTP(rec, req)
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
		after, err := svc.ListToolsets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if after.Generation != before.Generation || after.Toolsets[0].Token != seed.Registration.Token {
			t.Fatalf("refused request (%d %s) changed the registry", rec.Code, eb.Error.Code)
		}
	})
}
