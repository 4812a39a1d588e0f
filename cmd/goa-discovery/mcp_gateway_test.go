package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/npmservers"
	"github.com/goa-discovery/goa-discovery/runtime/mcp/gateway"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatewayClient is a go-sdk client session of "goa-discovery mcp gateway"
// run in this process over a pair of pipes, with the list_changed
// notifications it received.
type gatewayClient struct {
	*sdk.ClientSession
	changed chan struct{}
}

// startGateway runs "mcp gateway --config FILE" with extra flags in this
// process, on pipes, and connects a go-sdk client to it.
func startGateway(t *testing.T, config string, flags ...string) *gatewayClient {
	t.Helper()
	file := filepath.Join(t.TempDir(), "gateway.json")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := runMCPGateway(append([]string{"--config", file}, flags...), inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	c := &gatewayClient{changed: make(chan struct{}, 64)}
	cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.changed <- struct{}{} },
	})
	// Closing the client closes the gateway's standard input, as a host
	// does; the gateway's output is read until the gateway ends.
	cs, err := cl.Connect(context.Background(), &sdk.IOTransport{Reader: io.NopCloser(outR), Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v (gateway stderr: %s)", err, stderr.String())
	}
	c.ClientSession = cs
	t.Cleanup(func() {
		_ = cs.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("gateway exit %d: %s", code, stderr.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("the gateway did not stop after its client left")
		}
	})
	return c
}

func (c *gatewayClient) names(t *testing.T) []string {
	t.Helper()
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func (c *gatewayClient) search(t *testing.T, args map[string]any) gateway.SearchAnswer {
	t.Helper()
	out, isErr := c.call(t, "tool_search", args)
	if isErr {
		t.Fatalf("tool_search: %s", out)
	}
	var ans gateway.SearchAnswer
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("tool_search answer %q: %v", out, err)
	}
	return ans
}

func (c *gatewayClient) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	var parts []string
	for _, ct := range res.Content {
		if tc, ok := ct.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError
}

func (c *gatewayClient) waitChanged(t *testing.T) {
	t.Helper()
	select {
	case <-c.changed:
	case <-time.After(30 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
}

func foundTools(ans gateway.SearchAnswer) []string {
	var out []string
	for _, f := range ans.Tools {
		out = append(out, f.Name)
	}
	return out
}

// realServersConfig is an mcpServers file of four npm servers run offline
// over stdio; extra entries are merged into each server's object.
func realServersConfig(t *testing.T, extra map[string]map[string]any) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("the gateway test file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	servers := map[string]map[string]any{
		"everything": {"command": npmservers.Path(t, "mcp-server-everything")},
		"files":      {"command": npmservers.Path(t, "mcp-server-filesystem"), "args": []string{root}},
		"memory":     {"command": npmservers.Path(t, "mcp-server-memory"), "env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}},
		"thinking":   {"command": npmservers.Path(t, "mcp-server-sequential-thinking"), "env": map[string]string{"DISABLE_THOUGHT_LOGGING": "true"}},
	}
	for name, kv := range extra {
		for k, v := range kv {
			servers[name][k] = v
		}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMCPGatewayRealServers drives the gateway with the go-sdk client in
// front of four npm servers at once: search, list_changed, list again and
// call a tool of each server.
func TestMCPGatewayRealServers(t *testing.T) {
	c := startGateway(t, realServersConfig(t, nil))
	if got := c.names(t); !slices.Equal(got, []string{"tool_search"}) {
		t.Fatalf("first tools/list = %v, want [tool_search]", got)
	}
	cases := []struct {
		query string
		tool  string
		args  map[string]any
		want  string
	}{
		{"echo a message back", "everything_echo", map[string]any{"message": "hello gateway"}, "hello gateway"},
		{"read a text file", "files_read_text_file", map[string]any{"path": "notes.txt"}, "the gateway test file"},
		{"create entities in the knowledge graph", "memory_create_entities",
			map[string]any{"entities": []map[string]any{{"name": "Ada", "entityType": "person", "observations": []string{"wrote the first program"}}}}, "Ada"},
		{"sequential thinking step by step", "thinking_sequentialthinking",
			map[string]any{"thought": "first", "nextThoughtNeeded": false, "thoughtNumber": 1, "totalThoughts": 1}, "thoughtNumber"},
	}
	for _, tc := range cases {
		ans := c.search(t, map[string]any{"query": tc.query})
		if !slices.Contains(foundTools(ans), tc.tool) {
			t.Errorf("search %q found %v, want %s", tc.query, foundTools(ans), tc.tool)
			continue
		}
		if len(ans.Unavailable) > 0 {
			t.Errorf("unavailable: %+v", ans.Unavailable)
		}
		c.waitChanged(t)
		if got := c.names(t); !slices.Contains(got, tc.tool) {
			t.Errorf("tools/list after searching %q = %v, want %s", tc.query, got, tc.tool)
		}
		if tc.tool == "files_read_text_file" {
			// The filesystem server takes paths under its root.
			tc.args["path"] = filepath.Join(rootOf(t, c), "notes.txt")
		}
		out, isErr := c.call(t, tc.tool, tc.args)
		if isErr || !strings.Contains(out, tc.want) {
			t.Errorf("call %s = %q (error %v), want %q", tc.tool, out, isErr, tc.want)
		}
	}
}

// rootOf returns the filesystem server's allowed directory, read through
// the gateway.
func rootOf(t *testing.T, c *gatewayClient) string {
	t.Helper()
	c.search(t, map[string]any{"names": []string{"files_list_allowed_directories"}})
	out, isErr := c.call(t, "files_list_allowed_directories", map[string]any{})
	if isErr {
		t.Fatalf("list_allowed_directories: %s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// TestMCPGatewayDenied tries each way to reach a denied tool of a real
// server through the gateway: searching for it (by words and by name),
// listing after a search that would find it, calling it directly and
// through call_tool.
func TestMCPGatewayDenied(t *testing.T) {
	c := startGateway(t, realServersConfig(t, map[string]map[string]any{
		"files": {"deny": []string{"write_file", "edit_file"}},
	}), "--mode", "both")
	ans := c.search(t, map[string]any{"query": "write a file", "names": []string{"files_write_file", "files_read_text_file"}})
	if slices.Contains(foundTools(ans), "files_write_file") || slices.Contains(foundTools(ans), "files_edit_file") {
		t.Errorf("search found a denied tool: %v", foundTools(ans))
	}
	if !slices.Contains(ans.NotFound, "files_write_file") {
		t.Errorf("not_found = %v, want files_write_file", ans.NotFound)
	}
	if !slices.Contains(foundTools(ans), "files_read_text_file") {
		t.Errorf("search found %v: the server's other file tools stay served", foundTools(ans))
	}
	c.waitChanged(t)
	if got := c.names(t); slices.Contains(got, "files_write_file") || slices.Contains(got, "files_edit_file") {
		t.Errorf("tools/list = %v holds a denied tool", got)
	}
	args := map[string]any{"path": "x.txt", "content": "no"}
	for _, call := range []struct {
		tool string
		args any
	}{
		{"files_write_file", args},
		{"call_tool", map[string]any{"name": "files_write_file", "arguments": args}},
	} {
		// The client's unknown tool (a protocol error) or the gateway's
		// refusal of call_tool (a tool error).
		out, isErr := c.call(t, call.tool, call.args)
		refused := strings.Contains(out, `unknown tool "files_write_file"`) || strings.Contains(out, `no tool "files_write_file"`)
		if !isErr || !refused {
			t.Errorf("calling files_write_file through %s = %q (error %v), want a refusal", call.tool, out, isErr)
		}
	}
}

// TestMCPGatewayUpstreamKilled kills one upstream mid-session and keeps it
// from starting again: its calls fail with an error naming the server while
// the other servers keep answering; once it can start, the next call starts
// it again.
func TestMCPGatewayUpstreamKilled(t *testing.T) {
	dir := t.TempDir()
	pidFile, down := filepath.Join(dir, "pid"), filepath.Join(dir, "down")
	memory := npmservers.Path(t, "mcp-server-memory")
	c := startGateway(t, realServersConfig(t, map[string]map[string]any{
		"memory": {"command": "/bin/sh", "args": []string{"-c", `[ -e "$0" ] && exit 1; echo $$ > "$1"; exec "$2"`, down, pidFile, memory}},
	}))
	c.search(t, map[string]any{"names": []string{"memory_read_graph", "everything_echo"}})
	if out, isErr := c.call(t, "memory_read_graph", map[string]any{}); isErr {
		t.Fatalf("memory_read_graph before the kill: %s", out)
	}
	if err := os.WriteFile(down, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	killPIDFile(t, pidFile)
	out, isErr := c.call(t, "memory_read_graph", map[string]any{})
	if !isErr || !strings.Contains(out, `mcp server "memory"`) {
		t.Errorf("memory_read_graph after the kill = %q (error %v), want an error naming server \"memory\"", out, isErr)
	}
	if out, isErr := c.call(t, "everything_echo", map[string]any{"message": "still here"}); isErr || !strings.Contains(out, "still here") {
		t.Errorf("everything_echo while memory is down = %q (error %v)", out, isErr)
	}
	ans := c.search(t, map[string]any{"query": "echo"})
	if !slices.Contains(foundTools(ans), "everything_echo") {
		t.Errorf("search while memory is down found %v", foundTools(ans))
	}
	if err := os.Remove(down); err != nil {
		t.Fatal(err)
	}
	if out, isErr := c.call(t, "memory_read_graph", map[string]any{}); isErr {
		t.Errorf("memory_read_graph once the server can start again: %s", out)
	}
}

// killPIDFile kills the process whose id the file holds and waits until it
// is gone.
func killPIDFile(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscan(strings.TrimSpace(string(b)), &pid); err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("process %d still runs", pid)
}

// TestMCPGatewayUsage checks the command's refusals: each exits 2 with a
// message that names what is wrong, before anything is started.
func TestMCPGatewayUsage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(`{"mcpServers":{"a":{"command":"/nonexistent"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"mcpServers":{"a":{"command":"x","url":"http://127.0.0.1:1/"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "give the configuration: --config FILE"},
		{[]string{"--config", good, "extra"}, `unexpected argument "extra"`},
		{[]string{"--config", filepath.Join(dir, "none.json")}, "no such file"},
		{[]string{"--config", bad}, `bad.json: gateway: invalid configuration: mcpServers "a": both "command" and "url" are set`},
		{[]string{"--config", good, "--mode", "lazy"}, `mode "lazy"`},
		{[]string{"--config", good, "--limit", "0"}, "--limit 0: want at least 1"},
		{[]string{"--config", good, "--http", "0.0.0.0:8080"}, "0.0.0.0:8080 is not a loopback address"},
		{[]string{"--config", good, "--http", "8080"}, "--http: address 8080: missing port"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := runMCPGateway(tc.args, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("mcp gateway %v: exit %d, stderr %q, want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestMCPGatewayHTTP serves the gateway over streamable HTTP on loopback
// and drives one session with the go-sdk client.
func TestMCPGatewayHTTP(t *testing.T) {
	config := writeConfig(t, realServersConfig(t, nil))
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		done <- serveMCPGateway(ctx, []string{"--config", config, "--http", "127.0.0.1:0"}, strings.NewReader(""), outW, &stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no URL: %v (%s)", err, stderr.String())
	}
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "http://127.0.0.1:") || !strings.HasSuffix(line, "/mcp") {
		t.Fatalf("URL %q", line)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: line}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "tool_search", Arguments: map[string]any{"names": []string{"everything_echo"}}})
	if err != nil || res.IsError {
		t.Fatalf("tool_search: %v %v", err, res)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "everything_echo", Arguments: map[string]any{"message": "over http"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "over http") {
		t.Fatalf("everything_echo: %v %+v", err, res)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

// TestMCPGatewayUpstreamKilledMidCall kills an upstream while a call of
// its tool is under way: that call fails with an error naming the server,
// the other servers keep answering, and the next call starts the server
// again.
func TestMCPGatewayUpstreamKilledMidCall(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	everything := npmservers.Path(t, "mcp-server-everything")
	c := startGateway(t, realServersConfig(t, map[string]map[string]any{
		"everything": {"command": "/bin/sh", "args": []string{"-c", `echo $$ > "$0"; exec "$1"`, pidFile, everything}},
	}))
	c.search(t, map[string]any{"names": []string{"everything_trigger-long-running-operation", "everything_echo", "memory_read_graph"}})
	type result struct {
		out   string
		isErr bool
	}
	done := make(chan result, 1)
	go func() {
		out, isErr := c.call(t, "everything_trigger-long-running-operation", map[string]any{"duration": 30, "steps": 30})
		done <- result{out, isErr}
	}()
	time.Sleep(2 * time.Second) // the call is under way
	killPIDFile(t, pidFile)
	select {
	case r := <-done:
		if !r.isErr || !strings.Contains(r.out, `mcp server "everything"`) {
			t.Errorf("the call under way = %q (error %v), want an error naming server \"everything\"", r.out, r.isErr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the call under way did not end when its server was killed")
	}
	if out, isErr := c.call(t, "memory_read_graph", map[string]any{}); isErr {
		t.Errorf("memory_read_graph after everything was killed: %s", out)
	}
	if out, isErr := c.call(t, "everything_echo", map[string]any{"message": "back"}); isErr || !strings.Contains(out, "back") {
		t.Errorf("everything_echo after the kill = %q (error %v), want the server started again", out, isErr)
	}
}
