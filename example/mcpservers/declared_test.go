package mcpservers_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/example/mcpservers/gen/agents/reader"
	"github.com/goa-discovery/goa-discovery/example/mcpservers/gen/toolsets/workspace"
	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// TestDeclaredToolsetOnNPMServer registers the generated workspace toolset,
// two of server-filesystem's tools declared in the design, against the
// real server over stdio: its tools/list carries $schema draft-07, its own
// descriptions and no additionalProperties in the arguments, and still
// matches the declaration canonically, while a declaration that differs in
// a constraint is refused at that constraint. The generated reader agent
// then lists a directory with the immediate tool, finds the deferred
// read_text_file by name and calls it, and an argument the declaration
// does not allow is refused before it reaches the server.
func TestDeclaredToolsetOnNPMServer(t *testing.T) {
	filesystemBin := npmservers.Path(t, "mcp-server-filesystem")
	ctx := context.Background()
	root := t.TempDir()
	note := filepath.Join(root, "note.txt")
	if err := os.WriteFile(note, []byte("declared and served"), 0o600); err != nil {
		t.Fatal(err)
	}
	session := connect(t, workspace.Server, mcp.Command(filesystemBin, root))

	// A declaration that accepts what the server refuses is refused: head
	// declared as a string where the server takes a number. (A narrower
	// declaration, head as an integer, is compatible: arguments are checked
	// against the declared schema before they are sent.)
	narrower := workspace.Toolset()
	narrower.Tools[0].Payload = []byte(strings.Replace(string(narrower.Tools[0].Payload), `"number"`, `"integer"`, 1))
	if _, err := session.Check(ctx, narrower); err != nil {
		t.Fatalf("Check of head as an integer (narrower than the server's number) = %v, want compatible", err)
	}
	wider := workspace.Toolset()
	wider.Tools[0].Payload = []byte(strings.Replace(string(wider.Tools[0].Payload), `"number"`, `"string"`, 1))
	_, err := session.Check(ctx, wider)
	var me *mcp.MismatchError
	if !errors.As(err, &me) || me.Tool != workspace.ReadTextFile || me.Schema != "inputSchema" ||
		me.Pointer != "/properties/head/type" || me.Declared != `"string"` || me.Served != `"number"` {
		t.Fatalf("Check of head as a string = %v, want a mismatch at /properties/head/type", err)
	}
	t.Logf("refused as it should be: %v", err)

	rt := runtime.New()
	if err := workspace.Register(ctx, rt, session); err != nil {
		t.Fatalf("workspace.Register against server-filesystem: %v", err)
	}
	steps := []func() []model.Part{
		func() []model.Part {
			return []model.Part{
				call("list", "workspace_list_directory", `{"path":`+strconv.Quote(root)+`}`),
				model.DiscoveryCallPart(model.DiscoveryCall{ID: "d1", Names: []string{"workspace_read_text_file"}}),
			}
		},
		func() []model.Part {
			return []model.Part{
				call("read", "workspace_read_text_file", `{"path":`+strconv.Quote(note)+`}`),
				call("undeclared", "workspace_read_text_file", `{"path":`+strconv.Quote(note)+`,"encoding":"latin1"}`),
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
			parts = steps[n-1]()
		}
		return model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{})
	})
	if err := reader.RegisterReaderAgent(ctx, rt, reader.ReaderAgentConfig{Planner: planner}); err != nil {
		t.Fatal(err)
	}
	out, err := reader.NewClient(rt).Run(ctx, []model.Message{model.UserMessage("list the workspace and read the note")})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}

	if slices.Contains(declared[0], "workspace_read_text_file") || !slices.Contains(declared[0], "workspace_list_directory") {
		t.Errorf("step 1 declares %v, want list_directory without the deferred read_text_file", declared[0])
	}
	if !slices.Contains(declared[1], "workspace_read_text_file") {
		t.Errorf("step 2 declares %v, missing the discovered read_text_file", declared[1])
	}
	results := map[string]model.ToolResult{}
	var found []string
	for _, m := range out.Messages {
		for _, p := range m.Parts {
			if r := p.DiscoveryResult; r != nil {
				for _, s := range r.Tools {
					found = append(found, s.Name)
				}
			}
			if r := p.ToolResult; r != nil {
				results[r.CallID] = *r
			}
		}
	}
	t.Logf("discovery found: %s", strings.Join(found, ", "))
	if !slices.Equal(found, []string{"workspace_read_text_file"}) {
		t.Errorf("discovery found %v, want workspace_read_text_file", found)
	}
	for id, want := range map[string]string{
		"list": `[FILE] note.txt`,
		"read": `{"content":"declared and served"}`,
	} {
		r := results[id]
		t.Logf("result of %s: %q", id, r.Content)
		if r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("result of %s = %+v, want it to contain %q", id, r, want)
		}
	}
	// The server ignores properties it does not know, so only the
	// declared schema's check can make this call an error.
	if r := results["undeclared"]; !r.IsError || !strings.Contains(r.Content, "encoding") {
		t.Errorf("call with an undeclared argument = %+v, want an error result naming it", r)
	} else {
		t.Logf("result of undeclared: %q", r.Content)
	}
	for _, c := range out.Calls {
		if c.Source.Kind != runtime.SourceMCP || c.Source.Server != workspace.Server {
			t.Errorf("call %s recorded source %+v, want MCP server %q", c.CallID, c.Source, workspace.Server)
		}
	}
}
