package conformance

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// AnthropicVersion is the anthropic-version header the pinned SDK sends.
const AnthropicVersion = "2026-10-21"

const (
	docMigration   = "https://platform.claude.com/docs/en/api/migration-2026-10-21"
	docVersioning  = "https://platform.claude.com/docs/en/api/versioning"
	docBeta        = "https://platform.claude.com/docs/en/api/beta-headers"
	docMessages    = "https://platform.claude.com/docs/en/api/messages"
	docDefineTools = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools"
	docHandleCalls = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls"
	docToolSearch  = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool"
	docServerTools = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools"
	docStructured  = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"
	docThinking    = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"
	docCaching     = "https://platform.claude.com/docs/en/build-with-claude/prompt-caching"
)

// betaFeatures maps request fields that are beta features to the
// anthropic-beta value they need. The adapters use none of them, so a
// request must send the header exactly when one is present, or when its
// messages carry tool changes (toolChangeBeta).
var betaFeatures = map[string]string{
	"mcp_servers":        "mcp-client-2025-11-20",
	"context_management": "context-management-2025-06-27",
	"compaction":         "compact-2026-09-04",
	"speed":              "fast-mode-2026-02-01",
	"fallbacks":          "server-side-fallback-2026-07-01",
	"thread":             "message-threads-2026-08-12",
}

func anthropicRules() []Rule {
	return []Rule{
		{ID: "anthropic-version", Provider: Anthropic, Headers: true, Source: docVersioning + " (the anthropic-version header)",
			Check: func(r *Request) error {
				if v := r.Header.Get("anthropic-version"); v != AnthropicVersion {
					return fmt.Errorf("anthropic-version %q, want %q", v, AnthropicVersion)
				}
				return nil
			}},
		{ID: "anthropic-beta-when-used", Provider: Anthropic, Headers: true, Source: docBeta,
			Check: func(r *Request) error {
				var want []string
				for field, beta := range betaFeatures {
					if _, ok := r.Body[field]; ok {
						want = append(want, beta)
					}
				}
				if usesToolChanges(r) {
					want = append(want, toolChangeBeta)
				}
				sort.Strings(want)
				var got []string
				for _, v := range r.Header.Values("anthropic-beta") {
					for _, b := range strings.Split(v, ",") {
						if b = strings.TrimSpace(b); b != "" {
							got = append(got, b)
						}
					}
				}
				sort.Strings(got)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					return fmt.Errorf("anthropic-beta %q for the features used, want %q", got, want)
				}
				return nil
			}},
		{ID: "no-sampling-parameters", Provider: Anthropic, Source: docMigration + " (sampling parameters removed)",
			Check: func(r *Request) error {
				for _, k := range []string{"temperature", "top_p", "top_k"} {
					if _, ok := r.Body[k]; ok {
						return fmt.Errorf("%s is sent", k)
					}
				}
				return nil
			}},
		{ID: "max-tokens-positive", Provider: Anthropic, Source: docMessages + " (max_tokens)",
			Check: func(r *Request) error {
				if n, err := numberOf(r.Body["max_tokens"]); err != nil || n < 1 {
					return fmt.Errorf("max_tokens %v, want at least 1", r.Body["max_tokens"])
				}
				return nil
			}},
		{ID: "tool-name-pattern", Provider: Anthropic, Source: docDefineTools + " (name: ^[a-zA-Z0-9_-]{1,64}$)",
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					if n, ok := object(t)["name"]; ok && object(t)["type"] == nil && !toolName.MatchString(str(n)) {
						return fmt.Errorf("tool name %q", n)
					}
				}
				return nil
			}},
		{ID: "tool-results-first-and-answering", Provider: Anthropic, Source: docHandleCalls + " (tool_result blocks come first in the user turn after the tool_use blocks and answer each of them)",
			Check: checkToolResults},
		{ID: "non-empty-text", Provider: Anthropic, Source: docMessages + " (text content blocks must be non-empty)",
			Check: func(r *Request) error {
				return eachBlock(r, func(role string, b map[string]any) error {
					if b["type"] == "text" && str(b["text"]) == "" {
						return fmt.Errorf("empty text block in a %s turn", role)
					}
					return nil
				})
			}},
		{ID: "deferred-limit", Provider: Anthropic, Source: docToolSearch + " (at most 10,000 tools; at least one tool not deferred)",
			Check: func(r *Request) error {
				deferred, total := 0, len(list(r.Body["tools"]))
				for _, t := range list(r.Body["tools"]) {
					if truthy(object(t)["defer_loading"]) {
						deferred++
					}
				}
				switch {
				case deferred > 10000:
					return fmt.Errorf("%d deferred tools", deferred)
				case deferred > 0 && deferred == total:
					return errors.New("every tool is deferred")
				}
				return nil
			}},
		{ID: "search-tool-not-deferred", Provider: Anthropic, Source: docToolSearch + " (the tool search tool itself is never deferred)",
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					if strings.HasPrefix(str(object(t)["type"]), "tool_search_tool_") && truthy(object(t)["defer_loading"]) {
						return fmt.Errorf("%s is deferred", object(t)["type"])
					}
				}
				return nil
			}},
		{ID: "tool-reference-declared", Provider: Anthropic, Source: docToolSearch + " (custom tool search: a tool_reference names a tool of the request)",
			Check: checkToolReferences},
		{ID: "server-tool-result-pairing", Provider: Anthropic, Source: docServerTools + " (a tool search result answers a server_tool_use of the conversation, once)",
			Check: checkServerResults},
		{ID: "hosted-search-input", Provider: Anthropic, Source: docToolSearch + " (regex variant takes pattern, BM25 variant takes query)",
			Check: func(r *Request) error {
				return eachBlock(r, func(_ string, b map[string]any) error {
					if b["type"] != "server_tool_use" {
						return nil
					}
					in := object(b["input"])
					switch b["name"] {
					case "tool_search_tool_regex":
						if str(in["pattern"]) == "" {
							return fmt.Errorf("regex search %v has no pattern", b["id"])
						}
					case "tool_search_tool_bm25":
						if str(in["query"]) == "" {
							return fmt.Errorf("BM25 search %v has no query", b["id"])
						}
					}
					if !strings.HasPrefix(str(b["id"]), "srvtoolu_") {
						return fmt.Errorf("server tool id %q lacks srvtoolu_", b["id"])
					}
					return nil
				})
			}},
		{ID: "thinking-signed", Provider: Anthropic, Source: docThinking + " (thinking blocks are passed back unmodified, with their signature)",
			Check: func(r *Request) error {
				return eachBlock(r, func(role string, b map[string]any) error {
					switch b["type"] {
					case "thinking":
						if role != "assistant" || str(b["signature"]) == "" {
							return fmt.Errorf("thinking block in a %s turn, signature %q", role, b["signature"])
						}
					case "redacted_thinking":
						if role != "assistant" || str(b["data"]) == "" {
							return fmt.Errorf("redacted thinking in a %s turn without data", role)
						}
					}
					return nil
				})
			}},
		{ID: "strict-limits", Provider: Anthropic, Source: docStructured + " (JSON Schema limitations: 20 strict tools, 24 optional parameters, 16 union-typed parameters a request)",
			Check: func(r *Request) error {
				var strict, optional, unions int
				for _, t := range list(r.Body["tools"]) {
					if !truthy(object(t)["strict"]) {
						continue
					}
					strict++
					o, u := complexity(object(t)["input_schema"])
					optional += o
					unions += u
				}
				if strict > 20 || optional > 24 || unions > 16 {
					return fmt.Errorf("%d strict tools, %d optional and %d union-typed parameters", strict, optional, unions)
				}
				return nil
			}},
		{ID: "cache-breakpoints", Provider: Anthropic, Source: docCaching + " (at most 4 cache breakpoints a request)",
			Check: func(r *Request) error {
				if n := countKey(r.Body, "cache_control"); n > 4 {
					return fmt.Errorf("%d cache_control breakpoints", n)
				}
				return nil
			}},
	}
}

// eachBlock calls f with each content block of each message.
func eachBlock(r *Request, f func(role string, b map[string]any) error) error {
	for _, m := range list(r.Body["messages"]) {
		role := str(object(m)["role"])
		for _, b := range list(object(m)["content"]) {
			if err := f(role, object(b)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkToolResults(r *Request) error {
	msgs := list(r.Body["messages"])
	for i, m := range msgs {
		if str(object(m)["role"]) != "assistant" {
			continue
		}
		var uses []string
		for _, b := range list(object(m)["content"]) {
			if object(b)["type"] == "tool_use" {
				uses = append(uses, str(object(b)["id"]))
			}
		}
		if len(uses) == 0 {
			continue
		}
		if i+1 >= len(msgs) {
			return fmt.Errorf("message %d ends the request with tool_use blocks", i)
		}
		next := list(object(msgs[i+1])["content"])
		answered := map[string]bool{}
		for k, b := range next {
			if object(b)["type"] != "tool_result" {
				for _, later := range next[k:] {
					if object(later)["type"] == "tool_result" {
						return fmt.Errorf("message %d has a tool_result after other content", i+1)
					}
				}
				break
			}
			answered[str(object(b)["tool_use_id"])] = true
		}
		for _, id := range uses {
			if !answered[id] {
				return fmt.Errorf("tool_use %q of message %d has no tool_result in the next turn", id, i)
			}
		}
	}
	return nil
}

func checkToolReferences(r *Request) error {
	declared := map[string]bool{}
	for _, t := range list(r.Body["tools"]) {
		if n := str(object(t)["name"]); n != "" {
			declared[n] = true
		}
	}
	var refs func(v any) error
	refs = func(v any) error {
		switch x := v.(type) {
		case map[string]any:
			if isToolChange(x) {
				return nil // its tool_reference names the tool: checkToolChanges
			}
			if x["type"] == "tool_reference" && !declared[str(x["tool_name"])] {
				return fmt.Errorf("tool_reference to undeclared %q", x["tool_name"])
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := refs(x[k]); err != nil {
					return err
				}
			}
		case []any:
			for _, e := range x {
				if err := refs(e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return refs(r.Body["messages"])
}

func checkServerResults(r *Request) error {
	uses := map[string]bool{}
	answered := map[string]bool{}
	return eachBlock(r, func(_ string, b map[string]any) error {
		switch b["type"] {
		case "server_tool_use":
			uses[str(b["id"])] = true
		case "tool_search_tool_result":
			id := str(b["tool_use_id"])
			if !uses[id] {
				return fmt.Errorf("tool search result for %q follows no server_tool_use", id)
			}
			if answered[id] {
				return fmt.Errorf("server_tool_use %q answered twice", id)
			}
			answered[id] = true
		}
		return nil
	})
}

// complexity counts optional and union-typed parameters in a schema, as
// the strict limits count them.
func complexity(node any) (optional, unions int) {
	m := object(node)
	if m == nil {
		return 0, 0
	}
	props := object(m["properties"])
	required := map[string]bool{}
	for _, q := range list(m["required"]) {
		required[str(q)] = true
	}
	var nested []any
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := object(props[name])
		if !required[name] {
			optional++
		}
		if _, ok := p["anyOf"]; ok || len(list(p["type"])) > 1 {
			unions++
		}
		nested = append(nested, p)
	}
	for _, d := range object(m["$defs"]) {
		nested = append(nested, d)
	}
	nested = append(append(nested, list(m["anyOf"])...), m["items"])
	for _, n := range nested {
		o, u := complexity(n)
		optional += o
		unions += u
	}
	return optional, unions
}

func countKey(v any, key string) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == key {
				n++
			}
			n += countKey(e, key)
		}
	case []any:
		for _, e := range x {
			n += countKey(e, key)
		}
	}
	return n
}
