//go:build mcpgateway

package main

// The gateway's figures (docs/figures.md), measured against ten npm servers
// run offline over stdio with dummy credentials whose endpoints are a
// closed loopback port: .ci/steps/mcp-gateway installs them and runs
//
//	go test -tags mcpgateway -count=1 -run TestMCPGatewayFigures -v ./cmd/goa-discovery/

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// poolEnv names the node_modules/.bin of the six servers the step installs
// next to the four of scripts/test-deps.
const poolEnv = "GOA_DISCOVERY_MCP_GATEWAY_POOL"

// closedAddr is a loopback port nothing listens on: the servers' dummy
// endpoints.
const closedAddr = "127.0.0.1:9"

// figuresPool is the mcpServers entries of the ten servers.
func figuresPool(t *testing.T) map[string]map[string]any {
	t.Helper()
	pool := os.Getenv(poolEnv)
	if pool == "" {
		t.Fatalf("%s is not set: .ci/steps/mcp-gateway installs the pool", poolEnv)
	}
	home := t.TempDir()
	bin := func(name string) string { return filepath.Join(pool, name) }
	return map[string]map[string]any{
		"everything": {"command": npmservers.Path(t, "mcp-server-everything")},
		"files":      {"command": npmservers.Path(t, "mcp-server-filesystem"), "args": []string{home}},
		"memory":     {"command": npmservers.Path(t, "mcp-server-memory"), "env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(home, "memory.jsonl")}},
		"thinking":   {"command": npmservers.Path(t, "mcp-server-sequential-thinking"), "env": map[string]string{"DISABLE_THOUGHT_LOGGING": "true"}},
		"github":     {"command": bin("mcp-server-github"), "env": map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_dummy"}},
		"gitlab":     {"command": bin("mcp-server-gitlab"), "env": map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "glpat-dummy", "GITLAB_API_URL": "http://" + closedAddr + "/api/v4"}},
		"slack":      {"command": bin("mcp-server-slack"), "env": map[string]string{"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T00000000"}},
		"postgres":   {"command": bin("mcp-server-postgres"), "args": []string{"postgresql://dummy:dummy@" + closedAddr + "/db"}},
		"maps":       {"command": bin("mcp-server-google-maps"), "env": map[string]string{"GOOGLE_MAPS_API_KEY": "dummy"}},
		"brave":      {"command": bin("mcp-server-brave-search"), "env": map[string]string{"BRAVE_API_KEY": "dummy"}},
	}
}

// connectStdio starts a command and connects a go-sdk client to it.
func connectStdio(t *testing.T, path string, args []string, env map[string]string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "figures", Version: "v1"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// listBytes is the size of a server's tools/list results, every page, as
// compact JSON.
func listBytes(t *testing.T, cs *sdk.ClientSession) (bytes, tools int) {
	t.Helper()
	cursor := ""
	for {
		res, err := cs.ListTools(context.Background(), &sdk.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		bytes, tools = bytes+len(b), tools+len(res.Tools)
		if cursor = res.NextCursor; cursor == "" {
			return bytes, tools
		}
	}
}

func stringsOf(v any) []string {
	if v == nil {
		return nil
	}
	return v.([]string)
}

func envOf(v any) map[string]string {
	if v == nil {
		return nil
	}
	return v.(map[string]string)
}

// quantiles returns the 50th and 99th percentiles.
func quantiles(d []time.Duration) (p50, p99 time.Duration) {
	slices.Sort(d)
	return d[len(d)*50/100], d[len(d)*99/100]
}

// rssKiB returns the resident set of a process and of all its
// descendants, in KiB.
func rssKiB(t *testing.T, pid int) (self, children int) {
	t.Helper()
	read := func(pid int) int {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return 0
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				n, _ := strconv.Atoi(strings.Fields(v)[0])
				return n
			}
		}
		return 0
	}
	var kids func(pid int) []int
	kids = func(pid int) []int {
		var out []int
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			for _, s := range strings.Fields(string(b)) {
				c, _ := strconv.Atoi(s)
				out = append(out, c)
				out = append(out, kids(c)...)
			}
		}
		return out
	}
	for _, c := range kids(pid) {
		children += read(c)
	}
	return read(pid), children
}

// TestMCPGatewayFigures prints the gateway's figures.
func TestMCPGatewayFigures(t *testing.T) {
	pool := figuresPool(t)
	names := make([]string, 0, len(pool))
	for n := range pool {
		names = append(names, n)
	}
	slices.Sort(names)

	// The upstreams' own lists, read directly.
	sum, tools := 0, 0
	for _, n := range names {
		s := pool[n]
		b, k := listBytes(t, connectStdio(t, s["command"].(string), stringsOf(s["args"]), envOf(s["env"])))
		t.Logf("server %-10s %3d tools %7d bytes", n, k, b)
		sum, tools = sum+b, tools+k
	}

	// The gateway, as a host runs it.
	config, err := json.Marshal(map[string]any{"mcpServers": pool})
	if err != nil {
		t.Fatal(err)
	}
	file := writeConfig(t, string(config))
	bin := buildGateway(t)
	cmd := exec.Command(bin, "mcp", "gateway", "--config", file)
	gw, err := sdk.NewClient(&sdk.Implementation{Name: "figures", Version: "v1"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	first, _ := listBytes(t, gw)
	t.Logf("FIGURE first tools/list: gateway %d bytes (~%d tokens), the %d servers' lists %d bytes (~%d tokens) for %d tools: %.1f%%",
		first, first/4, len(names), sum, sum/4, tools, 100*float64(first)/float64(sum))

	ctx := context.Background()
	call := func(cs *sdk.ClientSession, name string, args any) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		d := time.Since(start)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		return d
	}
	// The first search starts the ten servers.
	start := time.Now()
	call(gw, "tool_search", map[string]any{"query": "echo"})
	t.Logf("FIGURE first search (starts the %d servers): %s", len(names), time.Since(start).Round(time.Millisecond))
	self, children := rssKiB(t, cmd.Process.Pid)
	t.Logf("FIGURE memory with %d upstreams connected: gateway RSS %d KiB, its %d servers' processes %d KiB", len(names), self, len(names), children)

	queries := []string{"create an issue", "search the web", "send a message to a channel", "read a file",
		"geocode an address", "run a sql query", "store facts in a knowledge graph", "think step by step",
		"list merge requests", "echo a message"}
	const n = 1000
	var search []time.Duration
	for i := range n {
		search = append(search, call(gw, "tool_search", map[string]any{"query": queries[i%len(queries)]}))
	}
	p50, p99 := quantiles(search)
	t.Logf("FIGURE search through the gateway (%d calls over stdio): p50 %s, p99 %s", n, p50.Round(time.Microsecond), p99.Round(time.Microsecond))

	e := pool["everything"]
	direct := connectStdio(t, e["command"].(string), nil, nil)
	args := map[string]any{"message": "hello"}
	var viaGateway, viaDirect []time.Duration
	for range n {
		viaGateway = append(viaGateway, call(gw, "everything_echo", args))
		viaDirect = append(viaDirect, call(direct, "echo", args))
	}
	g50, g99 := quantiles(viaGateway)
	d50, d99 := quantiles(viaDirect)
	t.Logf("FIGURE echo call (%d each, alternating): direct p50 %s p99 %s; through the gateway p50 %s p99 %s; added p50 %s p99 %s",
		n, d50.Round(time.Microsecond), d99.Round(time.Microsecond), g50.Round(time.Microsecond), g99.Round(time.Microsecond),
		(g50 - d50).Round(time.Microsecond), (g99 - d99).Round(time.Microsecond))
}
