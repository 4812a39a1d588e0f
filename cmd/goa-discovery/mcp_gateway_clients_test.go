package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

// clientsEnv names the node_modules directory of the npm MCP clients
// (the TypeScript SDK, MCP Inspector) that scripts/test-deps installs.
const clientsEnv = "GOA_DISCOVERY_MCP_CLIENTS"

// mcpClients returns the clients' node_modules directory, or skips (fails
// in CI) when node or the clients are absent.
func mcpClients(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		realdeps.Absent(t, "npm MCP clients", "node is not installed")
	}
	dir := os.Getenv(clientsEnv)
	if dir == "" {
		realdeps.Absent(t, "npm MCP clients", clientsEnv+" is not set")
	}
	if _, err := os.Stat(filepath.Join(dir, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		realdeps.Absent(t, "npm MCP clients", "@modelcontextprotocol/sdk is not installed in "+clientsEnv)
	}
	return dir
}

var (
	gatewayBinOnce sync.Once
	gatewayBin     string
	gatewayBinErr  error
)

// buildGateway builds goa-discovery once for the tests that start it as a
// process.
func buildGateway(t *testing.T) string {
	t.Helper()
	gatewayBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "goa-discovery-gateway")
		if err != nil {
			gatewayBinErr = err
			return
		}
		gatewayBin = filepath.Join(dir, "goa-discovery")
		out, err := exec.Command("go", "build", "-o", gatewayBin, ".").CombinedOutput()
		if err != nil {
			gatewayBinErr = &buildError{out: out, err: err}
		}
	})
	if gatewayBinErr != nil {
		t.Fatal(gatewayBinErr)
	}
	return gatewayBin
}

type buildError struct {
	out []byte
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + string(e.out) }

func writeConfig(t *testing.T, config string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestMCPGatewayTypeScriptClient drives the gateway, in front of four npm
// servers, with the TypeScript SDK's client (testdata/mcpclients/gateway-client.cjs):
// list, search, list_changed, list again, call.
func TestMCPGatewayTypeScriptClient(t *testing.T) {
	modules := mcpClients(t)
	config := writeConfig(t, realServersConfig(t, nil))
	bin := buildGateway(t)
	cmd := exec.Command("node", "../../testdata/mcpclients/gateway-client.cjs", modules, bin, config,
		"create entities in the knowledge graph", "memory_create_entities",
		`{"entities":[{"name":"Grace","entityType":"person","observations":["wrote a compiler"]}]}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var seen struct {
		First, Found, After []string
		ListChanged         bool
		IsError             bool
		Text                string
	}
	if err := json.Unmarshal(stdout.Bytes(), &seen); err != nil {
		t.Fatalf("client output %q: %v", stdout.String(), err)
	}
	if !slices.Equal(seen.First, []string{"tool_search"}) {
		t.Errorf("first tools/list = %v", seen.First)
	}
	if !slices.Contains(seen.Found, "memory_create_entities") || !seen.ListChanged || !slices.Contains(seen.After, "memory_create_entities") {
		t.Errorf("found %v, list_changed %v, then listed %v", seen.Found, seen.ListChanged, seen.After)
	}
	if seen.IsError || !strings.Contains(seen.Text, "Grace") {
		t.Errorf("call = %q (error %v)", seen.Text, seen.IsError)
	}
}

// TestMCPGatewayInspectorCLI lists and calls through the gateway with MCP
// Inspector's CLI mode, one session per command: tools/list shows the
// immediate tool and tool_search, tool_search finds tools of the four
// servers, and the immediate tool answers.
func TestMCPGatewayInspectorCLI(t *testing.T) {
	modules := mcpClients(t)
	inspector := filepath.Join(modules, ".bin", "mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		realdeps.Absent(t, "npm MCP clients", "@modelcontextprotocol/inspector is not installed in "+clientsEnv)
	}
	config := writeConfig(t, realServersConfig(t, map[string]map[string]any{"everything": {"immediate": []string{"echo"}}}))
	bin := buildGateway(t)
	// The inspector starts the gateway from a host configuration, as a
	// host does.
	host, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"gateway": map[string]any{"command": bin, "args": []string{"mcp", "gateway", "--config", config}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	hostConfig := writeConfig(t, string(host))
	inspect := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("node", append([]string{inspector, "--cli", "--config", hostConfig, "--server", "gateway"}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // nothing of the inspector outside the test
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s%s", args, err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	out := inspect("--method", "tools/list")
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list output %q: %v", out, err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"everything_echo", "tool_search"}) {
		t.Errorf("tools/list = %v, want [everything_echo tool_search]", names)
	}
	out = inspect("--method", "tools/call", "--tool-name", "tool_search", "--tool-arg", "query=store memory knowledge graph entities")
	if !strings.Contains(out, "memory_create_entities") {
		t.Errorf("tool_search through the inspector: %s", out)
	}
	out = inspect("--method", "tools/call", "--tool-name", "everything_echo", "--tool-arg", "message=from the inspector")
	if !strings.Contains(out, "from the inspector") || strings.Contains(out, `"isError": true`) {
		t.Errorf("everything_echo through the inspector: %s", out)
	}
}
