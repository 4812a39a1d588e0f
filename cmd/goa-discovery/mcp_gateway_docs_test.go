package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/google/go-cmp/cmp"
)

// gatewayDoc is the gateway's page.
var gatewayDoc = filepath.Join(moduleRoot, "docs", "gateway.md")

// TestGatewayDocsWalk replays the model-facing walk of docs/gateway.md:
// its host configuration must start the gateway with its gateway.json, and
// each step ("→ request" lines, "← answer" lines) must answer what the page
// shows. The servers run from the npm install of scripts/test-deps, found
// on PATH as a global npm install puts them.
func TestGatewayDocsWalk(t *testing.T) {
	doc := readDoc(t, gatewayDoc)
	blocks := fencedBlocks(doc, "json")
	if len(blocks) < 2 {
		t.Fatalf("%s shows %d JSON blocks, want the host configuration and gateway.json", gatewayDoc, len(blocks))
	}
	var host struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(blocks[0]), &host); err != nil {
		t.Fatalf("host configuration: %v", err)
	}
	entry, ok := host.MCPServers["tools"]
	if !ok || entry.Command != "goa-discovery" || len(entry.Args) < 4 || !slices.Equal(entry.Args[:3], []string{"mcp", "gateway", "--config"}) {
		t.Fatalf("the host configuration does not start goa-discovery mcp gateway --config FILE: %+v", host)
	}
	dir := filepath.Dir(npmservers.Path(t, "mcp-server-everything"))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	c := startGateway(t, blocks[1], entry.Args[4:]...)
	for i, step := range fencedBlocks(doc, "text") {
		if !strings.HasPrefix(step, "→ ") {
			continue
		}
		req, want, _ := strings.Cut(step, "\n← ")
		req = strings.TrimSpace(strings.TrimPrefix(req, "→ "))
		want = strings.TrimSpace(want)
		var got string
		switch {
		case req == "tools/list":
			got = strings.Join(c.names(t), "\n")
		case req == "notifications/tools/list_changed":
			c.waitChanged(t)
			continue
		case strings.HasPrefix(req, "tools/call "):
			name, args, _ := strings.Cut(strings.TrimPrefix(req, "tools/call "), " ")
			var a map[string]any
			if err := json.Unmarshal([]byte(args), &a); err != nil {
				t.Fatalf("step %d: arguments %q: %v", i+1, args, err)
			}
			out, isErr := c.call(t, name, a)
			if isErr {
				t.Fatalf("step %d: %s: %s", i+1, req, out)
			}
			got = out
		default:
			t.Fatalf("step %d: unknown request %q", i+1, req)
		}
		if !sameText(got, want) {
			t.Errorf("step %d: %s answers:\n%s\nthe page shows:\n%s\n%s", i+1, req, got, want, cmp.Diff(want, got))
		}
	}
}

// sameText compares two answers, as JSON when both are JSON (the page
// indents it).
func sameText(got, want string) bool {
	var g, w any
	if json.Unmarshal([]byte(got), &g) == nil && json.Unmarshal([]byte(want), &w) == nil {
		return cmp.Equal(g, w)
	}
	return got == want
}
