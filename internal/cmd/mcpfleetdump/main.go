package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

func main() {
	dir := flag.String("dir", "", "directory the npm packages are installed under, one prefix per server (outside the repository)")
	out := flag.String("out", "testdata/mcpfleet", "directory the catalogs are written to")
	only := flag.String("only", "", "comma-separated servers to dump alone, to check them (the pooled catalog is not written)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "mcpfleetdump: -dir is required")
		os.Exit(2)
	}
	if err := run(*dir, *out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "mcpfleetdump:", err)
		os.Exit(1)
	}
}

// catalogLine is one line of a catalog file.
type catalogLine struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Source      string          `json:"source"`
}

func run(dir, out, only string) error {
	if err := os.MkdirAll(filepath.Join(out, "servers"), 0o755); err != nil {
		return err
	}
	var pooled bytes.Buffer
	for _, s := range fleet {
		if only != "" && !strings.Contains(","+only+",", ","+s.name+",") {
			continue
		}
		lines, err := dump(dir, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		var own bytes.Buffer
		for _, l := range lines {
			if err := writeLine(&own, l); err != nil {
				return err
			}
			l.Name = s.name + "." + mcp.ToolName(l.Name)
			if err := writeLine(&pooled, l); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(out, "servers", s.name+".jsonl"), own.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %d tools\n", s.name, len(lines))
	}
	if only != "" {
		return nil
	}
	return os.WriteFile(filepath.Join(out, "tools.jsonl"), pooled.Bytes(), 0o644)
}

func writeLine(b *bytes.Buffer, l catalogLine) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return enc.Encode(l)
}

// dump installs s unless it is installed at its version, starts it and
// returns its tools in the order it lists them.
func dump(dir string, s fleetServer) ([]catalogLine, error) {
	prefix := filepath.Join(dir, strings.ReplaceAll(s.name, "_", "-"))
	if err := install(prefix, s); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "mcpfleet-"+s.name)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "kubeconfig"), []byte(kubeconfig), 0o600); err != nil {
		return nil, err
	}
	expand := func(v string) string { return strings.ReplaceAll(v, "{tmp}", tmp) }
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "NODE_ENV=production", "DO_NOT_TRACK=1"}
	for _, e := range s.env {
		env = append(env, expand(e))
	}
	args := make([]string, len(s.args))
	for i, a := range s.args {
		args[i] = expand(a)
	}
	cmd := mcp.Command(filepath.Join(prefix, "node_modules", ".bin", s.bin), args...)
	cmd.Env, cmd.Dir, cmd.TerminateAfter = env, tmp, time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, err := mcp.Connect(ctx, s.name, cmd)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	list, err := session.ListTools(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("lists no tools")
	}
	lines := make([]catalogLine, len(list))
	for i, t := range list {
		params, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		lines[i] = catalogLine{Name: t.Name, Title: t.Title, Description: t.Description, Parameters: params,
			Source: "npm:" + s.pkg + "@" + s.ver}
	}
	return lines, nil
}

// install installs s's package into prefix unless it is there at its
// version.
func install(prefix string, s fleetServer) error {
	manifest := filepath.Join(prefix, "node_modules", s.pkg, "package.json")
	if data, err := os.ReadFile(manifest); err == nil {
		var p struct{ Version string }
		if json.Unmarshal(data, &p) == nil && p.Version == s.ver {
			return nil
		}
	}
	cmd := exec.Command("npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", s.pkg+"@"+s.ver)
	cmd.Env = append(os.Environ(), "PUPPETEER_SKIP_DOWNLOAD=1", "PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// kubeconfig points the kubernetes server at a closed loopback port.
const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: offline
  cluster:
    server: https://127.0.0.1:9
contexts:
- name: offline
  context:
    cluster: offline
    user: offline
current-context: offline
users:
- name: offline
  user:
    token: dummy
`
