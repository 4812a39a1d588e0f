package registry

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestProviderHandler(t *testing.T) {
	tok := resolvedRecords(t, "r1").Token
	exec := ExecutorFunc(func(_ context.Context, call *CallRequest) (json.RawMessage, error) {
		switch string(call.Payload) {
		case `"busy"`:
			return nil, Errorf(CodeOverloaded, "queue full")
		case `"fail"`:
			return nil, errors.New("record locked")
		case `"garbage"`:
			return json.RawMessage(`{`), nil
		}
		return json.RawMessage(`{"ok":true}`), nil
	})
	srv := httptest.NewServer(ProviderHandler(exec, 512))
	defer srv.Close()
	call := func(payload string) string {
		b, _ := json.Marshal(CallRequest{CallID: "c1", Tool: "records.lookup", Token: tok, Payload: json.RawMessage(payload)})
		return string(b)
	}
	cases := []struct {
		name, method, body string
		status             int
		bodyPart           string
	}{
		{"result", "POST", call(`{}`), 200, `{"result":{"ok":true}}`},
		{"tool error", "POST", call(`"fail"`), 200, `{"tool_error":"record locked"}`},
		{"overloaded", "POST", call(`"busy"`), 503, `"code":"overloaded"`},
		{"not JSON result", "POST", call(`"garbage"`), 500, "not JSON"},
		{"bad call", "POST", `{"call_id":""}`, 400, "call_id is missing"},
		{"oversized", "POST", call(`"` + strings.Repeat("x", 600) + `"`), 413, "exceeds 512 bytes"},
		{"wrong method", "GET", "", 405, "want POST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL, strings.NewReader(tc.body))
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.bodyPart) {
				t.Fatalf("%d %s, want %d containing %s", resp.StatusCode, body, tc.status, tc.bodyPart)
			}
		})
	}
}
