package gateway

// The mcpServers configuration that MCP hosts read (Claude Desktop,
// Cursor, VS Code and others), with the gateway's own keys for policy:
//
//	{"mcpServers": {
//	  "files":  {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
//	             "env": {"LOG": "1"}, "deny": ["write_file"]},
//	  "issues": {"url": "http://127.0.0.1:8080/mcp", "headers": {"Authorization": "Bearer ..."},
//	             "allow": ["search_issues", "get_issue"], "immediate": ["get_issue"]},
//	  "billing": {"registry": "https://registry.example.com", "toolset": "billing", "version": "1.4.0",
//	              "token_env": "REGISTRY_TOKEN", "deny": ["refund_payment"]}
//	}}
//
// A "registry" entry (config_registry.go) serves a registry toolset, or
// with "toolset": "*" every toolset of the registry. Parsing is strict: an
// unknown key, a key given twice, a value of the wrong type, an entry with
// none or more than one of command, url and registry are errors that name
// the server and the key.

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Config is a gateway's configuration file.
type Config struct {
	// MCPServers are the upstream servers by name.
	MCPServers map[string]ServerConfig `json:"mcpServers"`
}

// ServerConfig is one entry of mcpServers.
type ServerConfig struct {
	// Type is "stdio" (command), "http" or "streamable-http" (url); empty
	// means whichever of command and url is set.
	Type string `json:"type,omitempty"`
	// Command is the program of a stdio server, looked up in PATH when it
	// has no slash.
	Command string `json:"command,omitempty"`
	// Args are the program's arguments.
	Args []string `json:"args,omitempty"`
	// Env adds to (and overrides in) the gateway's environment for the
	// program.
	Env map[string]string `json:"env,omitempty"`
	// Cwd is the program's working directory; empty means the gateway's.
	Cwd string `json:"cwd,omitempty"`
	// URL is the MCP endpoint of a streamable HTTP server.
	URL string `json:"url,omitempty"`
	// Headers are sent with every request to URL.
	Headers map[string]string `json:"headers,omitempty"`
	// Allow, Deny and Immediate are Upstream's lists.
	Allow     []string `json:"allow,omitempty"`
	Deny      []string `json:"deny,omitempty"`
	Immediate []string `json:"immediate,omitempty"`
	// Registry, Toolset, Version and TokenEnv make the entry a registry
	// toolset or a whole registry (config_registry.go).
	Registry string `json:"registry,omitempty"`
	Toolset  string `json:"toolset,omitempty"`
	Version  string `json:"version,omitempty"`
	TokenEnv string `json:"token_env,omitempty"`
}

// ErrConfig is matched by every error of ParseConfig.
var ErrConfig = errors.New("gateway: invalid configuration")

// ParseConfig reads a configuration file's content.
func ParseConfig(data []byte) (*Config, error) {
	var c Config
	if err := strictjson.Decode(data, &c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if len(c.MCPServers) == 0 {
		return nil, fmt.Errorf("%w: \"mcpServers\" names no server", ErrConfig)
	}
	for _, name := range c.names() {
		if err := c.MCPServers[name].check(name); err != nil {
			return nil, fmt.Errorf("%w: mcpServers %q: %w", ErrConfig, name, err)
		}
		if err := tools.ValidateName(name); err != nil {
			return nil, fmt.Errorf("%w: mcpServers %q: the server's name prefixes its tools' names: %w", ErrConfig, name, err)
		}
	}
	return &c, nil
}

// names returns the servers' names, sorted.
func (c *Config) names() []string {
	names := make([]string, 0, len(c.MCPServers))
	for n := range c.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// check refuses an entry that does not say exactly how to reach its server.
func (s ServerConfig) check(name string) error {
	if s.Registry != "" {
		return s.checkRegistry(name)
	}
	if err := s.checkNoRegistryKeys(); err != nil {
		return err
	}
	switch s.Type {
	case "", "stdio", "http", "streamable-http":
	case "sse":
		return errors.New("\"type\": \"sse\" (the HTTP+SSE transport of 2024-11-05) is not supported: use a streamable HTTP endpoint")
	default:
		return fmt.Errorf("\"type\": %q: want \"stdio\", \"http\" or \"streamable-http\"", s.Type)
	}
	stdio := s.Command != ""
	switch {
	case stdio && s.URL != "":
		return errors.New("both \"command\" and \"url\" are set: give one")
	case !stdio && s.URL == "":
		return errors.New("none of \"command\", \"url\" and \"registry\" is set: give one")
	case stdio && s.Type != "" && s.Type != "stdio":
		return fmt.Errorf("\"type\": %q with \"command\": a command is a stdio server", s.Type)
	case !stdio && s.Type == "stdio":
		return errors.New("\"type\": \"stdio\" with \"url\": a stdio server needs \"command\"")
	}
	if stdio {
		if len(s.Headers) > 0 {
			return errors.New("\"headers\" is for a \"url\" server, not a \"command\"")
		}
		for k := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return fmt.Errorf("\"env\" key %q is not a variable name", k)
			}
		}
	} else {
		if len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
			return errors.New("\"args\", \"env\" and \"cwd\" are for a \"command\" server, not a \"url\"")
		}
		u, err := url.Parse(s.URL)
		if err != nil {
			return fmt.Errorf("\"url\": %w", err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("\"url\" %q: want an absolute http or https URL", s.URL)
		}
		for k := range s.Headers {
			if k == "" || strings.ContainsAny(k, " :\r\n\x00") {
				return fmt.Errorf("\"headers\" key %q is not a header name", k)
			}
		}
	}
	// The lists' own rules are New's; checking them here names the file.
	_, err := newUpstream(Upstream{Transport: mcp.Command("x"), Allow: s.Allow, Deny: s.Deny, Immediate: s.Immediate}, nil)
	return err
}

// Upstreams returns the configured servers, sorted by name. A stdio
// server's environment is environ (os.Environ() when nil) with its "env"
// added; a registry entry's "token_env" is looked up in environ. Its errors
// (a token variable not set, a token the registry client refuses) match
// ErrConfig.
func (c *Config) Upstreams(environ []string) ([]Upstream, error) {
	if environ == nil {
		environ = os.Environ()
	}
	var ups []Upstream
	for _, name := range c.names() {
		s := c.MCPServers[name]
		u := Upstream{Name: name, Allow: s.Allow, Deny: s.Deny, Immediate: s.Immediate}
		if s.Registry != "" {
			if err := s.registryUpstream(&u, environ); err != nil {
				return nil, fmt.Errorf("%w: mcpServers %q: %w", ErrConfig, name, err)
			}
		} else if s.Command != "" {
			t := mcp.Command(s.Command, s.Args...)
			t.Env = withEnv(environ, s.Env)
			t.Dir = s.Cwd
			u.Transport = t
		} else {
			var client *http.Client
			if len(s.Headers) > 0 {
				client = &http.Client{Transport: headerTransport{headers: s.Headers, next: http.DefaultTransport}}
			}
			u.Transport = mcp.HTTP(s.URL, client)
		}
		ups = append(ups, u)
	}
	return ups, nil
}

// withEnv returns environ with the variables of env set.
func withEnv(environ []string, env map[string]string) []string {
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		_, set := env[k]
		return set
	})
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}

// headerTransport sends the configured headers with every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.next.RoundTrip(r)
}
