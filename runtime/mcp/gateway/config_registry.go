package gateway

// Registry entries of the configuration file: a registry toolset, or every
// toolset of a registry, next to the command and url servers.
//
//	"billing": {"registry": "https://registry.example.com", "toolset": "billing",
//	            "version": "1.4.0", "token_env": "REGISTRY_TOKEN", "deny": ["refund_payment"]}
//	"company": {"registry": "https://registry.example.com", "toolset": "*", "token_env": "REGISTRY_TOKEN"}
//
// The registry is reached by the runtime's registry client over HTTP
// (runtimeclient.NewHTTP, registry.NewClient), the one construction of a
// registry client: it refuses a URL that is not an absolute http or https
// URL, and a bearer token over plain http to a host that is not loopback.
// The token is never in the file: "token_env" names the variable of the
// gateway's environment that holds it.

import (
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
)

// EveryToolset is the "toolset" of a registry entry that serves every
// toolset of the registry.
const EveryToolset = "*"

// checkRegistry refuses a registry entry that mixes in a server's keys,
// names no toolset or another toolset than its own name, or whose registry
// client or lists New would refuse.
func (s ServerConfig) checkRegistry(name string) error {
	for _, k := range []struct {
		key string
		set bool
	}{
		{"type", s.Type != ""}, {"command", s.Command != ""}, {"args", len(s.Args) > 0}, {"env", len(s.Env) > 0},
		{"cwd", s.Cwd != ""}, {"url", s.URL != ""}, {"headers", len(s.Headers) > 0},
	} {
		if k.set {
			return fmt.Errorf("%q is for an MCP server entry, not a \"registry\" entry: an entry is one of them", k.key)
		}
	}
	switch {
	case s.Toolset == "":
		return fmt.Errorf("\"registry\" needs \"toolset\": the toolset to serve, named as the entry (%q), or %q for every toolset of the registry", name, EveryToolset)
	case s.Toolset != EveryToolset && s.Toolset != name:
		return fmt.Errorf("\"toolset\": %q under the entry %q: a registry toolset's entry is named after the toolset, whose name prefixes its tools' names: name the entry %q", s.Toolset, name, s.Toolset)
	case s.Toolset == EveryToolset && s.Version != "":
		return fmt.Errorf("\"version\": %q pins one toolset, not \"toolset\": %q", s.Version, EveryToolset)
	case strings.ContainsAny(s.TokenEnv, "=\x00"):
		return fmt.Errorf("\"token_env\": %q is not a variable name", s.TokenEnv)
	}
	client, err := runtimeclient.NewHTTP(s.Registry)
	if err != nil {
		return fmt.Errorf("\"registry\": %w", err)
	}
	// The lists' own rules are New's; checking them here names the file.
	_, err = newUpstream(s.registryUpstreamOf(name, client), nil)
	return err
}

// checkNoRegistryKeys refuses a registry key in a server's entry.
func (s ServerConfig) checkNoRegistryKeys() error {
	for _, k := range []struct {
		key string
		set bool
	}{{"toolset", s.Toolset != ""}, {"version", s.Version != ""}, {"token_env", s.TokenEnv != ""}} {
		if k.set {
			return fmt.Errorf("%q is for a \"registry\" entry, not an MCP server", k.key)
		}
	}
	return nil
}

// registryUpstream makes u the entry's registry upstream: its client
// presents the token of "token_env", read from environ.
func (s ServerConfig) registryUpstream(u *Upstream, environ []string) error {
	var opts []registry.ClientOption
	if s.TokenEnv != "" {
		token, ok := lookupEnv(environ, s.TokenEnv)
		switch {
		case !ok:
			return fmt.Errorf("\"token_env\": %s is not set in the gateway's environment", s.TokenEnv)
		case token == "":
			return fmt.Errorf("\"token_env\": %s is empty", s.TokenEnv)
		}
		opts = append(opts, registry.WithBearerToken(token))
	}
	client, err := runtimeclient.NewHTTP(s.Registry, opts...)
	if err != nil {
		return fmt.Errorf("\"registry\": %w", err)
	}
	*u = s.registryUpstreamOf(u.Name, client)
	return nil
}

// registryUpstreamOf is the upstream of the registry entry name.
func (s ServerConfig) registryUpstreamOf(name string, client *runtimeclient.Client) Upstream {
	return Upstream{Name: name, Registry: client, Version: s.Version, AllToolsets: s.Toolset == EveryToolset,
		Allow: s.Allow, Deny: s.Deny, Immediate: s.Immediate}
}

// lookupEnv returns the value of key in environ, the first one when it
// is set twice (as os.Getenv does).
func lookupEnv(environ []string, key string) (string, bool) {
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}
