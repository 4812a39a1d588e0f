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

// definitionsServer serves over streamable HTTP on loopback an MCP server
// whose schemas define their objects under $defs: the json-schema-2020-12
// conformance scenario's tool, whose "address" is used once, and "move",
// whose "place" is used three times in its arguments and once in its
// result. Once changed is set, a place's "city" is an integer.
func definitionsServer(t *testing.T, changed *atomic.Bool) string {
	newServer := func() *sdk.Server {
		s := sdk.NewServer(&sdk.Implementation{Name: "places", Version: "1"}, nil)
		city := `{"type":"string"}`
		if changed.Load() {
			city = `{"type":"integer"}`
		}
		place := `{"type":"object","description":"A place","properties":{"city":` + city + `,"street":{"type":"string"}},"required":["city"],"additionalProperties":false}`
		handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
		}
		s.AddTool(&sdk.Tool{Name: "json_schema_2020_12_tool", Description: "Tool with JSON Schema 2020-12 features", InputSchema: json.RawMessage(`{
			"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
			"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`)}, handler)
		s.AddTool(&sdk.Tool{Name: "move", Description: "Move between places",
			InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
				"properties":{"from":{"$ref":"#/$defs/place","description":"Where from"},"to":{"$ref":"#/$defs/place"},"via":{"type":"array","items":{"$ref":"#/$defs/place"}}},
				"required":["from","to"],"additionalProperties":false,"$defs":{"place":` + place + `}}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"at":{"$ref":"#/$defs/place"}},"required":["at"],"additionalProperties":false,"$defs":{"place":` + place + `}}`)}, handler)
		return s
	}
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newServer() }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestMCPImportDefinitions imports a server whose schemas use $defs and
// $ref into a design and checks the design against the server with mcp
// diff: the schemas gen writes from the imported design match the
// server's (exit 0), and a change inside a definition is reported at the
// place that uses it (exit 1).
func TestMCPImportDefinitions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	var changed atomic.Bool
	url := definitionsServer(t, &changed)
	mod := newImportModule(t)
	file := filepath.Join(mod, "design", "places.go")
	var stdout, stderr bytes.Buffer
	if code := runMCP([]string{"import", "--name", "places", "-o", file, "--url", url}, &stdout, &stderr); code != 0 {
		t.Fatalf("import: exit %d:\n%s", code, stderr.String())
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`var PlacesAddress = Type("PlacesAddress", func() {`, `var PlacesPlace = Type("PlacesPlace", func() {`,
		`Attribute("from", PlacesPlace, "Where from")`, `Attribute("via", ArrayOf(PlacesPlace))`, `Attribute("at", PlacesPlace)`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the design holds no %q:\n%s", want, src)
		}
	}
	t.Chdir(mod)
	for _, kv := range importModuleEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	diff := func() (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runMCP([]string{"diff", "example.com/imported/design", "--url", url}, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, out, errs := diff(); code != 0 || !strings.Contains(out, `toolset "places": its 2 declared tools match server "places"`) {
		t.Fatalf("diff of the same server: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	changed.Store(true)
	code, out, errs := diff()
	if code != 1 {
		t.Fatalf("diff of a changed server: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{
		`declared tool "places.move": inputSchema differs at /properties/from/properties/city/type: declared "string", server has "integer"`,
		`declared tool "places.move": outputSchema differs at /properties/at/properties/city/type: declared "string", server has "integer"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout holds no %q:\n%s", want, out)
		}
	}
}
