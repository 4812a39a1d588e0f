package mcp_test

import (
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// TestCallErrorRedacts checks that the text the model reads of a tool
// error or a refusal carries the server's words with the credentials of
// URLs and query strings redacted.
func TestCallErrorRedacts(t *testing.T) {
	for _, tc := range []struct {
		kind         mcp.CallErrorKind
		detail, want string
	}{
		{mcp.CallToolError, `request to https://maps.example/api/geocode/json?address=Paris&key=AIzaDummy123 failed: connect ECONNREFUSED 127.0.0.1:9`,
			`mcp server "maps" tool "geocode" reported an error: request to https://maps.example/api/geocode/json?address=Paris&key=REDACTED failed: connect ECONNREFUSED 127.0.0.1:9`},
		{mcp.CallRefused, `GET http://admin:hunter2@127.0.0.1:9/v1?api_key=abc;access_token=xyz&page=2 refused`,
			`mcp server "maps" tool "geocode": the server refused the call: GET http://REDACTED@127.0.0.1:9/v1?api_key=REDACTED;access_token=REDACTED&page=2 refused`},
		{mcp.CallToolError, `?X-Amz-Signature=abcdef&client_secret=s3cr3t&q=ok`,
			`mcp server "maps" tool "geocode" reported an error: ?X-Amz-Signature=REDACTED&client_secret=REDACTED&q=ok`},
		{mcp.CallToolError, `no credentials here: id=7&name=x`, `mcp server "maps" tool "geocode" reported an error: no credentials here: id=7&name=x`},
	} {
		e := &mcp.CallError{Server: "maps", Tool: "geocode", Kind: tc.kind, Detail: tc.detail}
		if got := e.ModelMessage(); got != tc.want {
			t.Errorf("ModelMessage() =\n%s\nwant\n%s", got, tc.want)
		}
	}
}

// FuzzRedact redacts any server text: redacting twice changes nothing,
// and a value after "?api_key=" never survives.
func FuzzRedact(f *testing.F) {
	f.Add("GET https://u:p@h.example/x?api_key=abc&q=1", "s3cr3t")
	f.Add("no url at all", "v")
	f.Fuzz(func(t *testing.T, text, secret string) {
		once := mcp.Redact(text)
		if twice := mcp.Redact(once); twice != once {
			t.Fatalf("Redact is not idempotent: %q then %q", once, twice)
		}
		if secret == "" || strings.ContainsAny(secret, "&;#\"'<> \t\n\r\f\v\u0085\u00a0") || secret == mcp.Redacted {
			return
		}
		if got := mcp.Redact(text + "?api_key=" + secret); !strings.Contains(got, "?api_key="+mcp.Redacted) {
			t.Fatalf("the secret survives: %q", got)
		}
	})
}
