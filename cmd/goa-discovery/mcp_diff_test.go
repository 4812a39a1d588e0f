package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
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

// TestMCPDiffUndeclared imports a server without one of its tools
// (--skip-tools), which the file lists in a comment block; mcp diff then
// lists the tool as undeclared, exit 0, or exit 1 with --fail-undeclared.
// A second import whose names the package already declares is refused
// before it is written.
func TestMCPDiffUndeclared(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	var changed atomic.Bool
	url := driftingServer(t, &changed)
	mod := newImportModule(t)
	file := filepath.Join(mod, "design", "records.go")
	var stdout, stderr bytes.Buffer
	if code := runMCP([]string{"import", "--name", "records", "--skip-tools", "count", "-o", file, "--url", url}, &stdout, &stderr); code != 0 {
		t.Fatalf("import: exit %d:\n%s", code, stderr.String())
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "//   - \"count\": --skip-tools\n"; !strings.Contains(string(src), want) || strings.Contains(string(src), `Tool("count"`) {
		t.Errorf("the file does not list the skipped tool as %q, or declares it:\n%s", want, src)
	}
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"a skipped tool the server does not list", `--skip-tools names tools the server does not list: absent`,
			[]string{"--skip-tools", "absent", "-o", filepath.Join(mod, "design", "other.go")}},
		{"a toolset named like a variable of the package", `would declare Records, which`,
			[]string{"-o", filepath.Join(mod, "design", "again.go")}},
	} {
		stderr.Reset()
		args := append(append([]string{"import", "--name", "records"}, tc.args...), "--url", url)
		if code := runMCP(args, new(bytes.Buffer), &stderr); code != 1 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: exit %d, want 1 and %q:\n%s", tc.name, code, tc.want, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(mod, "design", "again.go")); err == nil {
		t.Error("the refused import wrote its file")
	}
	t.Chdir(mod)
	for _, kv := range importModuleEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	const design = "example.com/imported/design"
	for _, tc := range []struct {
		args []string
		code int
	}{{nil, 0}, {[]string{"--fail-undeclared"}, 1}} {
		stdout.Reset()
		stderr.Reset()
		code := runMCP(append(append([]string{"diff"}, tc.args...), design, "--url", url), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String(), `server "records" lists tool "count", which no declared toolset declares`+"\n") {
			t.Errorf("diff %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, stdout.String(), stderr.String())
		}
	}
}
