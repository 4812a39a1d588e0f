package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// driftingServer serves over streamable HTTP on loopback an MCP server with
// tools "lookup" and "count"; once changed is set, lookup's "id" is an
// integer instead of a string and "count" is gone.
func driftingServer(t *testing.T, changed *atomic.Bool) string {
	newServer := func() *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "records", Version: "1"}, nil)
		id := `{"type":"string","description":"Record id"}`
		if changed.Load() {
			id = `{"type":"integer","description":"Record id"}`
		}
		handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		}
		s.AddTool(&sdk.Tool{Name: "lookup", Description: "Look up a record", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":` + id + `},"required":["id"]}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)}, handler)
		if !changed.Load() {
			s.AddTool(&sdk.Tool{Name: "count", Description: "Count the records", InputSchema: json.RawMessage(`{"type":"object"}`)}, handler)
		}
		return s
	}
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newServer() }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestMCPDiff imports a server into a design, then checks it with mcp
// diff: exit 0 while the server is the same, exit 1 with each difference
// at its JSON Pointer once it changed, exit 2 when the check cannot run.
func TestMCPDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	var changed atomic.Bool
	url := driftingServer(t, &changed)
	mod := newImportModule(t)
	var stdout, stderr bytes.Buffer
	if code := runMCP([]string{"import", "--name", "records", "-o", filepath.Join(mod, "design", "records.go"), "--url", url}, &stdout, &stderr); code != 0 {
		t.Fatalf("import: exit %d:\n%s", code, stderr.String())
	}
	t.Chdir(mod)
	for _, kv := range importModuleEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	diff := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runMCP(append([]string{"diff"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	const design = "example.com/imported/design"
	if code, out, errs := diff(design, "--url", url); code != 0 || !strings.Contains(out, `toolset "records": its 2 declared tools match server "records"`) {
		t.Fatalf("diff of the same server: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	changed.Store(true)
	code, out, errs := diff("--server", "records", design, "--url", url)
	if code != 1 {
		t.Fatalf("diff of a changed server: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{
		`design/records.go:10: toolset "records": mcp server "records": declared tool "records.lookup": inputSchema differs at /properties/id/type: declared "string", server has "integer"`,
		`design/records.go:10: toolset "records": mcp server "records": declared tool "records.count": the server lists no tool named "count"`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("stdout holds no line %q:\n%s", want, out)
		}
	}
	if code, _, errs := diff("--server", "other", design, "--url", url); code != 2 || !strings.Contains(errs, `the design declares no MCP toolset of server "other"; it declares toolsets of records`) {
		t.Errorf("diff of an unknown server: exit %d:\n%s", code, errs)
	}
}
