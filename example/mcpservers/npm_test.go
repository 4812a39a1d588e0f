package mcpservers_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/mcpservers/gen/agents/tinkerer"
	"github.com/goa-discovery/goa-discovery/example/mcpservers/gen/toolsets/everything"
	"github.com/goa-discovery/goa-discovery/example/mcpservers/gen/toolsets/files"
	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// connect opens a session with a server and closes it when the test ends.
func connect(t *testing.T, server string, tr mcp.Transport) *mcp.Session {
	t.Helper()
	s, err := mcp.Connect(context.Background(), server, tr)
	if err != nil {
		t.Fatalf("connect %s: %v", server, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestGeneratedAgentOnNPMServers runs the generated tinkerer agent over
// both servers, connected over stdio: it searches their tools, asks for
// one by name, calls what it found, and is refused a file outside the
// filesystem server's directory.
func TestGeneratedAgentOnNPMServers(t *testing.T) {
	everythingBin := npmservers.Path(t, "mcp-server-everything")
	filesystemBin := npmservers.Path(t, "mcp-server-filesystem")
	ctx := context.Background()
	root := t.TempDir()
	rt := runtime.New()
	// Each generated package connects its server under the design's name
	// and registers its list as a source.
	if err := everything.Register(ctx, rt, connect(t, everything.Server, mcp.Command(everythingBin, "stdio"))); err != nil {
		t.Fatalf("everything.Register: %v", err)
	}
	if err := files.Register(ctx, rt, connect(t, files.Server, mcp.Command(filesystemBin, root))); err != nil {
		t.Fatalf("files.Register: %v", err)
	}
	note := filepath.Join(root, "note.txt")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []func(in *runtime.PlanInput) []model.Part{
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Query: "add two numbers"}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Query: "write a new file"}),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d3", Names: []string{"files_read_text_file", "everything_echo"}}),
			}
		},
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{
				call("sum", "everything_get-sum", `{"a":2,"b":3}`),
				call("echo", "everything_echo", `{"message":"hello"}`),
				call("write", "files_write_file", `{"path":`+strconv.Quote(note)+`,"content":"hello from a generated agent"}`),
			}
		},
		func(*runtime.PlanInput) []model.Part {
			return []model.Part{
				call("read", "files_read_text_file", `{"path":`+strconv.Quote(note)+`}`),
				call("escape", "files_read_text_file", `{"path":`+strconv.Quote(outside)+`}`),
			}
		},
	}
	var declared [][]string
	planner := runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		var names []string
		for _, d := range in.Agent.AdvertisedToolDefinitions() {
			names = append(names, d.Name)
		}
		declared = append(declared, names)
		parts := []model.Part{model.TextPart("done")}
		if n := in.Agent.Step(); n <= len(steps) {
			parts = steps[n-1](in)
		}
		return model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{})
	})
	if err := tinkerer.RegisterTinkererAgent(ctx, rt, tinkerer.TinkererAgentConfig{Planner: planner}); err != nil {
		t.Fatal(err)
	}
	out, err := tinkerer.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("add, echo, write and read")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}

	found := map[string][]string{}
	results := map[string]model.ToolResult{}
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if r := p.DiscoveryResult; r != nil {
				for _, s := range r.Tools {
					found[r.CallID] = append(found[r.CallID], s.Name)
				}
			}
			if r := p.ToolResult; r != nil {
				results[r.CallID] = *r
			}
		}
	}
	for id, want := range map[string]string{"d1": "everything_get-sum", "d2": "files_write_file", "d3": "files_read_text_file"} {
		t.Logf("discovery %s found: %s", id, strings.Join(found[id], ", "))
		if len(found[id]) == 0 || found[id][0] != want {
			t.Errorf("discovery %s found %v, want %s first", id, found[id], want)
		}
	}
	if strings.Join(declared[0], ",") != runtime.DiscoveryToolName {
		t.Errorf("step 1 declares %v, want the search tool alone", declared[0])
	}
	for _, want := range []string{"everything_get-sum", "everything_echo", "files_write_file", "files_read_text_file"} {
		if !slices.Contains(declared[1], want) {
			t.Errorf("step 2 declares %v, missing the discovered %s", declared[1], want)
		}
	}
	for id, want := range map[string]string{
		"sum":   "The sum of 2 and 3 is 5.",
		"echo":  "Echo: hello",
		"write": "Successfully wrote to " + note,
		"read":  `{"content":"hello from a generated agent"}`,
	} {
		r := results[id]
		t.Logf("result of %s: %q", id, r.Content)
		if r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("result of %s = %+v, want it to contain %q", id, r, want)
		}
	}
	if r := results["escape"]; !r.IsError || !strings.Contains(r.Content, "outside allowed directories") {
		t.Errorf("reading outside the filesystem server's directory: %+v, want an error result", r)
	} else {
		t.Logf("result of escape: %q", r.Content)
	}
	if b, err := os.ReadFile(note); err != nil || string(b) != "hello from a generated agent" {
		t.Errorf("note.txt holds %q, %v", b, err)
	}
	for _, c := range out.Calls {
		if c.Source.Kind != runtime.SourceMCP || c.Source.Server != c.Source.Registry || c.Source.Token == "" {
			t.Errorf("call %s recorded source %+v, want an MCP source with its list's token", c.CallID, c.Source)
		}
	}
}

func call(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: []byte(args)})
}
