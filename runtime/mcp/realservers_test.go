package mcp_test

// Third-party MCP servers from npm (@modelcontextprotocol/server-everything
// and server-filesystem, installed by .ci/run) listed, searched, discovered
// and called over stdio through a runtime agent with a scripted planner.

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// everythingDeclared is part of server-everything 2026.8.31 as gen would
// write its declaration: no $schema, descriptions of its own and
// additionalProperties false in the arguments, where the server lists
// draft-07's $schema, other descriptions and no additionalProperties. They
// match canonically.
var everythingDeclared = tools.ToolsetSchema{Name: "ev", Tools: []tools.ToolSchema{
	tool("ev.echo", `{"type":"object","properties":{"message":{"type":"string","description":"Text to send back"}},"required":["message"],"additionalProperties":false}`, ""),
	tool("ev.get-structured-content", `{"type":"object","properties":{"location":{"type":"string","enum":["Chicago","Los Angeles","New York"],"description":"City"}},"required":["location"],"additionalProperties":false}`,
		`{"type":"object","properties":{"temperature":{"type":"number","description":"Degrees Celsius"},"conditions":{"type":"string"},"humidity":{"type":"number"}},"required":["conditions","humidity","temperature"],"additionalProperties":false}`),
}}

func TestNPMServers(t *testing.T) {
	everythingBin := npmservers.Path(t, "mcp-server-everything")
	filesystemBin := npmservers.Path(t, "mcp-server-filesystem")
	ctx := context.Background()
	root := t.TempDir()
	everything := connect(t, "everything", mcp.Command(everythingBin, "stdio"))
	filesystem := connect(t, "filesystem", mcp.Command(filesystemBin, root))

	for _, s := range []*mcp.Session{everything, filesystem} {
		cat, err := s.ListCatalog(ctx, "listed")
		if err != nil {
			t.Fatalf("ListCatalog %s: %v", s.Server(), err)
		}
		names := make([]string, len(cat.Toolset.Tools))
		for i, ts := range cat.Toolset.Tools {
			names[i], _ = cat.MCPName(ts.Name)
		}
		t.Logf("%s lists %d tools: %s", s.Server(), len(names), strings.Join(names, ", "))
	}

	rt := runtime.New()
	if err := mcp.RegisterToolset(ctx, rt, everything, mcp.DeclaredToolset{Schema: everythingDeclared}); err != nil {
		t.Fatalf("RegisterToolset: %v", err)
	}
	for _, src := range []struct {
		s       *mcp.Session
		toolset string
	}{{everything, "everything"}, {filesystem, "fs"}} {
		if _, err := mcp.RegisterSource(rt, src.s, src.toolset); err != nil {
			t.Fatalf("RegisterSource %s: %v", src.toolset, err)
		}
	}
	note := filepath.Join(root, "note.txt")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	planner := scripted(t,
		func(*testing.T, *runtime.PlanInput) model.Message {
			return model.AssistantMessage(
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "sum of two numbers"}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "write a file"}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d3", Names: []string{"ev_get-structured-content", "fs_read_text_file"}}),
			)
		},
		func(*testing.T, *runtime.PlanInput) model.Message {
			return calls(
				call("echo", "ev_echo", `{"message":"hello"}`),
				call("sum", "everything_get-sum", `{"a":2,"b":3}`),
				call("weather", "ev_get-structured-content", `{"location":"Chicago"}`),
				call("write", "fs_write_file", `{"path":`+quoteJSON(note)+`,"content":"hello from goa-discovery"}`),
			)
		},
		func(*testing.T, *runtime.PlanInput) model.Message {
			return calls(
				call("read", "fs_read_text_file", `{"path":`+quoteJSON(note)+`}`),
				call("escape", "fs_read_text_file", `{"path":`+quoteJSON(outside)+`}`),
			)
		},
	)
	err := rt.RegisterAgent(ctx, runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"ev.echo"},
		Deferred:  []tools.Ident{"ev.get-structured-content"},
		Registries: []runtime.RegistrySource{
			{Registry: "everything", Toolset: "everything", Deferred: true},
			{Registry: "filesystem", Toolset: "fs", Deferred: true},
		},
		Planner: planner,
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("assistant").Run(ctx, []model.Message{model.UserMessage("add, write and read")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	found := discovered(out.Messages)
	t.Logf("discovery found: %s", strings.Join(found, ", "))
	for _, want := range []string{"everything_get-sum", "fs_write_file", "ev_get-structured-content", "fs_read_text_file"} {
		if !slices.Contains(found, want) {
			t.Errorf("discovery found %v, missing %q", found, want)
		}
	}
	res := results(out)
	for id, want := range map[string]string{
		"echo":    "Echo: hello",
		"sum":     "5",
		"weather": `"temperature"`,
		"read":    "hello from goa-discovery",
	} {
		r := res[id]
		t.Logf("result of %s: %q", id, r.Content)
		if r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("result of %s = %+v, want it to contain %q", id, r, want)
		}
	}
	if r := res["escape"]; !r.IsError {
		t.Errorf("reading outside the filesystem server's directory succeeded: %q", r.Content)
	} else {
		t.Logf("result of escape: %q", r.Content)
	}
	if b, err := os.ReadFile(note); err != nil || string(b) != "hello from goa-discovery" {
		t.Errorf("note.txt holds %q, %v", b, err)
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
