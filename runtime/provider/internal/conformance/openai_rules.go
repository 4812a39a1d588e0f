package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

const (
	docLatestModel = "https://developers.openai.com/api/docs/guides/latest-model (parameter compatibility)"
	docReasoning   = "https://developers.openai.com/api/docs/guides/reasoning"
	docFunctions   = "https://developers.openai.com/api/docs/guides/function-calling"
	docStructuredO = "https://developers.openai.com/api/docs/guides/structured-outputs (supported schemas)"
	docToolSearchO = "https://developers.openai.com/api/docs/guides/tools-tool-search"
	docAuth        = "https://developers.openai.com/api/reference/overview (authentication)"
)

func numberOf(v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("not a number")
	}
	return n.Float64()
}

// reasons reports whether a model reasons at the request's effort, read
// from the model ID as the documentation describes the families; the
// adapters' reading is not used.
func reasons(modelID, effort string) bool {
	id := strings.ToLower(modelID)
	if len(id) >= 2 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9' {
		return true
	}
	rest, ok := strings.CutPrefix(id, "gpt-5")
	if !ok || strings.HasPrefix(rest, "-chat") {
		return false
	}
	alwaysReasons := rest == "" || rest[0] == '-' || strings.Contains(rest, "-pro")
	return alwaysReasons || (effort != "" && effort != "none")
}

func responsesRules() []Rule {
	return []Rule{
		{ID: "bearer-auth", Provider: OpenAIResponses, Headers: true, Source: docAuth,
			Check: bearer},
		{ID: "no-beta-header", Provider: OpenAIResponses, Headers: true, Source: docAuth + " (OpenAI-Beta is for beta APIs, which the Responses API is not)",
			Check: noOpenAIBeta},
		{ID: "sampling-on-reasoning-models", Provider: OpenAIResponses, Source: docLatestModel + "; " + docReasoning,
			Check: func(r *Request) error {
				return sampling(str(r.Body["model"]), str(object(r.Body["reasoning"])["effort"]), r.Body)
			}},
		{ID: "store-false-encrypted-reasoning", Provider: OpenAIResponses, Source: docReasoning + " (encrypted reasoning items: with store false, include reasoning.encrypted_content and pass the items back with it)",
			Check: func(r *Request) error {
				if store, ok := r.Body["store"].(bool); !ok || store {
					return nil
				}
				included := false
				for _, inc := range list(r.Body["include"]) {
					included = included || inc == "reasoning.encrypted_content"
				}
				if !included {
					return errors.New("store false without include reasoning.encrypted_content")
				}
				for _, it := range list(r.Body["input"]) {
					if object(it)["type"] == "reasoning" && str(object(it)["encrypted_content"]) == "" {
						return fmt.Errorf("reasoning item %v without encrypted_content", object(it)["id"])
					}
				}
				return nil
			}},
		{ID: "outputs-answer-calls", Provider: OpenAIResponses, Source: docFunctions + "; " + docToolSearchO + " (an output item answers a call item before it, by call_id)",
			Check: func(r *Request) error {
				calls := map[string]string{}
				for _, it := range list(r.Body["input"]) {
					o := object(it)
					id := str(o["call_id"])
					switch o["type"] {
					case "function_call", "tool_search_call":
						calls[id] = str(o["type"])
					case "function_call_output":
						if calls[id] != "function_call" {
							return fmt.Errorf("function_call_output %q answers no function_call", id)
						}
					case "tool_search_output":
						if calls[id] != "tool_search_call" && o["execution"] == "client" {
							return fmt.Errorf("tool_search_output %q answers no tool_search_call", id)
						}
					}
				}
				return nil
			}},
		{ID: "function-name-pattern", Provider: OpenAIResponses, Source: docFunctions + " (name: letters, digits, _ and -, at most 64)",
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					if object(t)["type"] == "function" && !toolName.MatchString(str(object(t)["name"])) {
						return fmt.Errorf("function name %q", object(t)["name"])
					}
				}
				return nil
			}},
		{ID: "strict-schema-closed", Provider: OpenAIResponses, Source: docStructuredO,
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					o := object(t)
					if o["type"] == "function" && truthy(o["strict"]) {
						if err := closedSchema(o["parameters"], str(o["name"])); err != nil {
							return err
						}
					}
				}
				return nil
			}},
	}
}

func chatRules() []Rule {
	return []Rule{
		{ID: "bearer-auth", Provider: OpenAIChat, Headers: true, Source: docAuth, Check: bearer},
		{ID: "no-beta-header", Provider: OpenAIChat, Headers: true, Source: docAuth, Check: noOpenAIBeta},
		{ID: "sampling-on-reasoning-models", Provider: OpenAIChat, Source: docLatestModel + "; " + docReasoning,
			Check: func(r *Request) error {
				return sampling(str(r.Body["model"]), str(r.Body["reasoning_effort"]), r.Body)
			}},
		{ID: "tool-messages-answer-calls", Provider: OpenAIChat, Source: docFunctions + " (each tool message answers a tool call of the assistant message before it)",
			Check: func(r *Request) error {
				open := map[string]bool{}
				for i, m := range list(r.Body["messages"]) {
					o := object(m)
					switch o["role"] {
					case "assistant":
						for id, pending := range open {
							if pending {
								return fmt.Errorf("tool call %q is not answered before message %d", id, i)
							}
						}
						open = map[string]bool{}
						for _, c := range list(o["tool_calls"]) {
							open[str(object(c)["id"])] = true
						}
					case "tool":
						id := str(o["tool_call_id"])
						if !open[id] {
							return fmt.Errorf("tool message %d answers no open call %q", i, id)
						}
						open[id] = false
					default:
						for id, pending := range open {
							if pending {
								return fmt.Errorf("tool call %q is not answered before message %d", id, i)
							}
						}
					}
				}
				return nil
			}},
		{ID: "function-name-pattern", Provider: OpenAIChat, Source: docFunctions,
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					if n := str(object(object(t)["function"])["name"]); !toolName.MatchString(n) {
						return fmt.Errorf("function name %q", n)
					}
				}
				return nil
			}},
		{ID: "strict-schema-closed", Provider: OpenAIChat, Source: docStructuredO,
			Check: func(r *Request) error {
				for _, t := range list(r.Body["tools"]) {
					f := object(object(t)["function"])
					if truthy(f["strict"]) {
						if err := closedSchema(f["parameters"], str(f["name"])); err != nil {
							return err
						}
					}
				}
				return nil
			}},
	}
}

func bearer(r *Request) error {
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		return errors.New("no Authorization: Bearer header")
	}
	return nil
}

func noOpenAIBeta(r *Request) error {
	if v := r.Header.Get("OpenAI-Beta"); v != "" {
		return fmt.Errorf("OpenAI-Beta %q is sent", v)
	}
	return nil
}

func sampling(modelID, effort string, body map[string]any) error {
	if !reasons(modelID, effort) {
		return nil
	}
	for _, k := range []string{"temperature", "top_p"} {
		if _, ok := body[k]; ok {
			return fmt.Errorf("%s sent to %s at reasoning effort %q", k, modelID, effort)
		}
	}
	return nil
}

// closedSchema checks the strict-mode shape: every object sets
// additionalProperties false and requires all its properties.
func closedSchema(node any, tool string) error {
	m := object(node)
	if m == nil {
		return nil
	}
	if props := object(m["properties"]); props != nil || m["type"] == "object" {
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			return fmt.Errorf("strict tool %q: an object schema does not set additionalProperties false", tool)
		}
		required := map[string]bool{}
		for _, q := range list(m["required"]) {
			required[str(q)] = true
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if !required[name] {
				return fmt.Errorf("strict tool %q: property %q is not required", tool, name)
			}
			if err := closedSchema(props[name], tool); err != nil {
				return err
			}
		}
	}
	for _, n := range append(list(m["anyOf"]), m["items"]) {
		if err := closedSchema(n, tool); err != nil {
			return err
		}
	}
	return nil
}
