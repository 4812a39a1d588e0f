package service_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

func TestBadRequestsChangeNothing(t *testing.T) {
	const limit = 4096
	h := newHarness(t, service.WithMaxBodyBytes(limit))
	p := newProvider(t)
	ctx := context.Background()
	reg := publish(t, h.client, p, "1.0.0", "r1")
	before, err := h.client.ListToolsets(ctx)
	if err != nil {
		t.Fatal(err)
	}

	publishBody := func(edit func(m map[string]any)) string {
		raw, _ := json.Marshal(registry.PublishRequest{Toolset: recordsToolset("2.0.0"), Revision: "r2", Endpoint: p.server.URL})
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		edit(m)
		out, _ := json.Marshal(m)
		return string(out)
	}
	tool0 := func(m map[string]any) map[string]any {
		return m["toolset"].(map[string]any)["tools"].([]any)[0].(map[string]any)
	}
	cases := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		status      int
		code        registry.Code
		msgPart     string
	}{
		{"malformed JSON", "POST", registry.PathToolsets, "", `{"toolset":`, 400, registry.CodeInvalidRequest, "invalid JSON"},
		{"not an object", "POST", registry.PathToolsets, "", `[]`, 400, registry.CodeInvalidRequest, "want a JSON object"},
		{"unknown field", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["endpoints"] = []string{} }), 400, registry.CodeInvalidRequest, `unknown field "endpoints"`},
		{"duplicate key", "POST", registry.PathToolsets, "", `{"revision":"a","revision":"b"}`, 400, registry.CodeInvalidRequest, `duplicate object key "revision"`},
		{"payload schema a string", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { tool0(m)["payload"] = "object" }), 400, registry.CodeInvalidSchema, "not a JSON object"},
		{"payload schema not object typed", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { tool0(m)["payload"] = map[string]any{"type": "array"} }), 400, registry.CodeInvalidSchema, `"type": "object"`},
		{"payload schema does not compile", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) {
			tool0(m)["payload"] = map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "strang"}}}
		}), 400, registry.CodeInvalidSchema, "records.lookup"},
		{"result schema not an object", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { tool0(m)["result"] = []any{} }), 400, registry.CodeInvalidSchema, "result"},
		{"toolset name breaks the rules", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["toolset"].(map[string]any)["name"] = "re cords" }), 400, registry.CodeInvalidSchema, `"re cords"`},
		{"tool of another toolset", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { tool0(m)["name"] = "billing.lookup" }), 400, registry.CodeInvalidSchema, `belongs to toolset "billing"`},
		{"pagination partner missing", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) {
			tool0(m)["contract"].(map[string]any)["pagination_partner"] = "records.more"
		}), 400, registry.CodeInvalidSchema, `pagination partner "records.more", which the toolset does not have`},
		{"registered_at sent", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["toolset"].(map[string]any)["registered_at"] = "2026-01-01T00:00:00Z" }), 400, registry.CodeInvalidRequest, "registered_at"},
		{"fingerprint mismatch", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["fingerprint"] = string(reg.Fingerprint) }), 400, registry.CodeFingerprintMismatch, "the registry computes"},
		{"bad endpoint", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["endpoint"] = "tcp://x" }), 400, registry.CodeInvalidRequest, "scheme"},
		{"oversized body", "POST", registry.PathToolsets, "", publishBody(func(m map[string]any) { m["toolset"].(map[string]any)["description"] = strings.Repeat("x", limit) }), 413, registry.CodeBodyTooLarge, "exceeds 4096 bytes"},
		{"not JSON content", "POST", registry.PathToolsets, "text/plain", `{}`, 415, registry.CodeUnsupportedMediaType, "text/plain"},
		{"resolve nothing", "POST", registry.PathResolve, "", `{"toolsets":[]}`, 400, registry.CodeInvalidRequest, "no toolsets named"},
		{"call with bad tool", "POST", registry.PathCalls, "", `{"call_id":"c","tool":"x","token":"` + string(reg.Token) + `","payload":{}}`, 400, registry.CodeInvalidRequest, `invalid tool identifier "x"`},
		{"call with array payload", "POST", registry.PathCalls, "", `{"call_id":"c","tool":"records.lookup","token":"` + string(reg.Token) + `","payload":[]}`, 400, registry.CodeInvalidPayload, "want object"},
		{"withdraw with stale token", "POST", registry.PathWithdraw, "application/json; charset=utf-8", `{"toolset":"records","token":"` + string(registry.NewToken(reg.Fingerprint, "r0")) + `"}`, 409, registry.CodeTokenMismatch, "not the current registration"},
		{"wrong method", "DELETE", registry.PathToolsets, "", "", 405, registry.CodeMethodNotAllowed, "want GET, POST"},
		{"unknown route", "GET", "/v2/toolsets", "", "", 404, registry.CodeNotFound, "no route GET /v2/toolsets"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, h.server.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			resp, err := h.server.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			var body registry.ErrorBody
			if err := json.Unmarshal(data, &body); err != nil || body.Error == nil {
				t.Fatalf("status %d, body %s is not an error body", resp.StatusCode, data)
			}
			if resp.StatusCode != tc.status || body.Error.Code != tc.code || !strings.Contains(body.Error.Message, tc.msgPart) {
				t.Fatalf("got %d %s %q, want %d %s containing %q", resp.StatusCode, body.Error.Code, body.Error.Message, tc.status, tc.code, tc.msgPart)
			}
			after, err := h.client.ListToolsets(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Fatalf("a refused request changed the registry (-before +after):\n%s", diff)
			}
		})
	}
	if n := p.executions.Load(); n != 0 {
		t.Fatalf("refused calls ran %d times", n)
	}
}
