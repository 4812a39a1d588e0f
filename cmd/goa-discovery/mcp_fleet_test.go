//go:build mcpfleet

package main

// The import of a fleet of public MCP servers from npm, run by
// .ci/steps/mcp-import-fleet (which installs them at pinned versions):
//
//	GOA_DISCOVERY_MCP_FLEET=DIR go test -tags mcpfleet -run TestMCPImportFleet -v ./cmd/goa-discovery/
//
// Each server runs offline over stdio with dummy credentials pointing at a
// closed loopback port. The test imports each without --any and, where
// that fails, with --any, counting the properties --any declares Any where
// the server declared a type; all imports go into one design package,
// which gen must generate and go build must build; the generated Register
// of every toolset must accept its live server, and mcp diff must find no
// difference.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/mcpimport"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

// fleetServer is one npm MCP server of the fleet.
type fleetServer struct {
	// name is the server's and the toolset's name in the design.
	name string
	// dir is the server's install directory under the fleet directory, bin
	// its executable in node_modules/.bin.
	dir, bin string
	args     []string
	// env holds its dummy credentials and endpoints.
	env []string
	// offline, when set, says why the server lists no tools offline: its
	// failure is reported, not a failure of the test.
	offline string
}

// closed is a loopback address where nothing listens (the discard port).
const closed = "127.0.0.1:9"

func fleet(home string) []fleetServer {
	return []fleetServer{
		{name: "github", dir: "modelcontextprotocol-server-github", bin: "mcp-server-github", env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=ghp_dummy"}},
		{name: "gitlab", dir: "modelcontextprotocol-server-gitlab", bin: "mcp-server-gitlab", env: []string{"GITLAB_PERSONAL_ACCESS_TOKEN=glpat-dummy", "GITLAB_API_URL=http://" + closed + "/api/v4"}},
		{name: "slack", dir: "modelcontextprotocol-server-slack", bin: "mcp-server-slack", env: []string{"SLACK_BOT_TOKEN=xoxb-dummy", "SLACK_TEAM_ID=T00000000"}},
		{name: "postgres", dir: "modelcontextprotocol-server-postgres", bin: "mcp-server-postgres", args: []string{"postgresql://dummy:dummy@" + closed + "/db"}},
		{name: "redis", dir: "modelcontextprotocol-server-redis", bin: "mcp-server-redis", args: []string{"redis://" + closed},
			offline: "it exits when Redis does not answer"},
		{name: "puppeteer", dir: "modelcontextprotocol-server-puppeteer", bin: "mcp-server-puppeteer"},
		{name: "maps", dir: "modelcontextprotocol-server-google-maps", bin: "mcp-server-google-maps", env: []string{"GOOGLE_MAPS_API_KEY=dummy"}},
		{name: "brave", dir: "modelcontextprotocol-server-brave-search", bin: "mcp-server-brave-search", env: []string{"BRAVE_API_KEY=dummy"}},
		{name: "thinking", dir: "modelcontextprotocol-server-sequential-thinking", bin: "mcp-server-sequential-thinking"},
		{name: "filesystem", dir: "modelcontextprotocol-server-filesystem", bin: "mcp-server-filesystem", args: []string{home}},
		{name: "everything", dir: "modelcontextprotocol-server-everything", bin: "mcp-server-everything", args: []string{"stdio"}},
		{name: "memory", dir: "modelcontextprotocol-server-memory", bin: "mcp-server-memory", env: []string{"MEMORY_FILE_PATH=" + filepath.Join(home, "memory.json")}},
		{name: "notion", dir: "notionhq-notion-mcp-server", bin: "notion-mcp-server", env: []string{"NOTION_TOKEN=ntn_dummy", "BASE_URL=http://" + closed}},
		{name: "supabase", dir: "supabase-mcp-server-supabase", bin: "mcp-server-supabase", args: []string{"--access-token=sbp_dummy", "--api-url=http://" + closed},
			offline: "its tools/list fetches from its API"},
		{name: "sentry", dir: "sentry-mcp-server", bin: "sentry-mcp", args: []string{"--access-token=dummy", "--host=" + closed}},
		{name: "mongodb", dir: "mongodb-mcp-server", bin: "mongodb-mcp-server", env: []string{"MDB_MCP_CONNECTION_STRING=mongodb://" + closed, "MDB_MCP_TELEMETRY=disabled", "DO_NOT_TRACK=1"}},
		{name: "kubernetes", dir: "mcp-server-kubernetes", bin: "mcp-server-kubernetes", env: []string{"KUBECONFIG=" + filepath.Join(home, "kubeconfig")}},
		{name: "desktop", dir: "wonderwhy-er-desktop-commander", bin: "desktop-commander", env: []string{"DO_NOT_TRACK=1"}},
		{name: "devtools", dir: "chrome-devtools-mcp", bin: "chrome-devtools-mcp", args: []string{"--browserUrl=http://" + closed}},
		{name: "hubspot", dir: "hubspot-mcp-server", bin: "mcp-hubspot", env: []string{"PRIVATE_APP_ACCESS_TOKEN=pat-dummy"}},
		{name: "firecrawl", dir: "firecrawl-mcp", bin: "firecrawl-mcp", env: []string{"FIRECRAWL_API_KEY=fc-dummy", "FIRECRAWL_API_URL=http://" + closed}},
	}
}

// kubeconfig points kubectl clients at the closed port.
const kubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://` + closed + `"}}]
users: [{name: u, user: {token: dummy}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`

// commandLine is the server's command line: env sets the dummy
// credentials, with HOME in the test's directory.
func (s fleetServer) commandLine(dir, home string) []string {
	line := []string{"env", "HOME=" + home}
	line = append(line, s.env...)
	line = append(line, filepath.Join(dir, s.dir, "node_modules", ".bin", s.bin))
	return append(line, s.args...)
}

// fleetResult is what the import of one server gave.
type fleetResult struct {
	tools int
	// problems without --any, lost with it (properties declared Any where
	// the server declared a type).
	problems, lost int
	err            error
}

func TestMCPImportFleet(t *testing.T) {
	dir := os.Getenv("GOA_DISCOVERY_MCP_FLEET")
	if dir == "" {
		t.Skip("GOA_DISCOVERY_MCP_FLEET is not set: run .ci/steps/mcp-import-fleet")
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "kubeconfig"), []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	mod := newImportModule(t)
	results := map[string]*fleetResult{}
	var imported []fleetServer
	for _, s := range fleet(home) {
		r := &fleetResult{}
		results[s.name] = r
		line := s.commandLine(dir, home)
		var stderr bytes.Buffer
		c := mcp.Command(line[0], line[1:]...)
		c.TerminateAfter = time.Second
		list, err := listTools(context.Background(), s.name, c)
		if err != nil {
			r.err = err
			if s.offline == "" {
				t.Errorf("server %s did not list its tools: %v", s.name, err)
			}
			continue
		}
		keepList(t, s.name, list)
		r.tools = len(list)
		o := mcpimport.Options{Server: s.name, Toolset: s.name, Source: "stdio"}
		_, err = mcpimport.Write(list, o)
		var problems mcpimport.Errors
		switch {
		case err == nil:
		case errors.As(err, &problems):
			r.problems = len(problems)
		default:
			t.Errorf("import %s: %v", s.name, err)
			continue
		}
		o.Any = true
		res, err := mcpimport.Write(list, o)
		if err != nil {
			t.Errorf("import %s with --any: %v", s.name, err)
			continue
		}
		for _, p := range res.DeclaredAny {
			if p.Typed {
				r.lost++
			}
		}
		args := []string{"import", "--name", s.name, "--toolset", s.name, "-o", filepath.Join(mod, "design", s.name+".go")}
		if r.problems > 0 {
			args = append(args, "--any")
		}
		if code := runMCP(append(append(args, "--command"), line...), new(bytes.Buffer), &stderr); code != 0 {
			t.Errorf("goa-discovery %s: exit %d:\n%s", strings.Join(args, " "), code, stderr.String())
			continue
		}
		imported = append(imported, s)
	}
	clean, lost, started := 0, 0, 0
	var table strings.Builder
	fmt.Fprintf(&table, "%-11s %5s %9s %5s\n", "server", "tools", "problems", "lost")
	for _, s := range fleet(home) {
		r := results[s.name]
		if r.err != nil {
			fmt.Fprintf(&table, "%-11s lists no tools offline (%s)\n", s.name, cmp.Or(s.offline, r.err.Error()))
			continue
		}
		started++
		if r.problems == 0 {
			clean++
		}
		lost += r.lost
		fmt.Fprintf(&table, "%-11s %5d %9d %5d\n", s.name, r.tools, r.problems, r.lost)
	}
	t.Logf("fleet import:\n%s%d of %d servers list their tools offline; %d import without --any; --any declares %d properties Any that had a declared type", table.String(), started, len(results), clean, lost)
	if clean < 12 {
		t.Errorf("%d servers import without --any, want at least 12", clean)
	}
	if lost > 40 {
		t.Errorf("--any declares %d properties Any that had a declared type, want at most 40", lost)
	}
	checkFleetDesign(t, dir, home, mod, imported)
}

// checkFleetDesign generates the design of the imported servers, builds
// it, registers each generated toolset with its live server, and runs mcp
// diff against each.
func checkFleetDesign(t *testing.T, dir, home, mod string, imported []fleetServer) {
	if len(imported) == 0 {
		t.Fatal("no server was imported")
	}
	tmpl := registerCheckTemplate(t)
	t.Chdir(mod)
	for _, kv := range importModuleEnv() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var stdout, stderr bytes.Buffer
	if code := runGen([]string{"-o", "gen", "example.com/imported/design"}, &stdout, &stderr); code != 0 {
		t.Fatalf("gen: exit %d:\n%s", code, stderr.String())
	}
	goInModule(t, mod, nil, "build", "./...")
	var cases []registerCase
	var env []string
	for _, s := range imported {
		key := strings.ToUpper(s.name) + "_COMMAND"
		cases = append(cases, registerCase{Alias: s.name, Package: "example.com/imported/gen/toolsets/" + s.name, Env: key})
		env = append(env, key+"="+strings.Join(s.commandLine(dir, home), " "))
	}
	writeRegisterCheck(t, tmpl, mod, cases)
	out := goInModule(t, mod, env, "test", "-count=1", "-v", "./check/")
	for _, s := range imported {
		if !strings.Contains(out, "--- PASS: TestRegisterImported/"+s.name) {
			t.Errorf("no passing registration of %s:\n%s", s.name, out)
		}
	}
	for _, s := range imported {
		stdout.Reset()
		stderr.Reset()
		args := append([]string{"diff", "--server", s.name, "example.com/imported/design", "--command"}, s.commandLine(dir, home)...)
		if code := runMCP(args, &stdout, &stderr); code != 0 {
			t.Errorf("mcp diff %s: exit %d\n%s%s", s.name, code, stdout.String(), stderr.String())
		}
	}
	names := make([]string, len(imported))
	for i, s := range imported {
		names[i] = s.name
	}
	slices.Sort(names)
	t.Logf("generated, built, registered and diffed: %s", strings.Join(names, ", "))
}

// keepList writes the server's tools/list to the directory
// GOA_DISCOVERY_MCP_FLEET_LISTS names, when set, as NAME.json.
func keepList(t *testing.T, name string, list []mcpimport.Tool) {
	dir := os.Getenv("GOA_DISCOVERY_MCP_FLEET_LISTS")
	if dir == "" {
		return
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
