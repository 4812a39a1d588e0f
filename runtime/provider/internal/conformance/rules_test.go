package conformance

import (
	"net/http"
	"strings"
	"testing"
)

// breaking holds, per provider and rule, a request that breaks the rule:
// every rule must be able to fail.
var breaking = map[string]map[string]struct {
	body   string
	header http.Header
}{
	Anthropic: {
		"anthropic-version":        {`{"model":"m","max_tokens":1,"messages":[]}`, http.Header{"Anthropic-Version": {"2023-06-01"}}},
		"anthropic-beta-when-used": {`{"model":"m","max_tokens":1,"messages":[]}`, http.Header{"Anthropic-Version": {AnthropicVersion}, "Anthropic-Beta": {"advanced-tool-use-2025-11-20"}}},
		"no-sampling-parameters":   {`{"model":"m","max_tokens":1,"temperature":0.2,"messages":[]}`, nil},
		"max-tokens-positive":      {`{"model":"m","max_tokens":0,"messages":[]}`, nil},
		"tool-name-pattern":        {`{"tools":[{"name":"records.lookup","input_schema":{"type":"object"}}]}`, nil},
		"tool-results-first-and-answering": {`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"a","input":{}}]},` +
			`{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"t1"}]}]}`, nil},
		"non-empty-text":           {`{"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`, nil},
		"deferred-limit":           {`{"tools":[{"name":"a","defer_loading":true,"input_schema":{}}]}`, nil},
		"search-tool-not-deferred": {`{"tools":[{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25","defer_loading":true},{"name":"a","input_schema":{}}]}`, nil},
		"tool-reference-declared": {`{"tools":[{"name":"a","input_schema":{}}],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t",` +
			`"content":[{"type":"tool_reference","tool_name":"b"}]}]}]}`, nil},
		"server-tool-result-pairing": {`{"messages":[{"role":"assistant","content":[{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{}}]}]}`, nil},
		"hosted-search-input":        {`{"messages":[{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"tool_search_tool_regex","input":{"query":"q"}}]}]}`, nil},
		"thinking-signed":            {`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":""}]}]}`, nil},
		"strict-limits":              {`{"tools":[` + strings.Repeat(`{"name":"a","strict":true,"input_schema":{"type":"object","properties":{"x":{"type":["string","null"]}}}},`, 25) + `{"name":"b","input_schema":{}}]}`, nil},
		"system-message-placement":   {`{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":"y"},{"role":"system","content":"z"}]}`, nil},
		"tool-change-declared": {`{"tools":[{"name":"a","input_schema":{}}],"messages":[{"role":"user","content":"x"},` +
			`{"role":"system","content":[{"type":"tool_removal","tool":{"type":"tool_reference","name":"b"}}]}]}`, nil},
		"cache-breakpoints": {`{"system":[` + strings.Repeat(`{"type":"text","text":"s","cache_control":{"type":"ephemeral"}},`, 4) + `{"type":"text","text":"s","cache_control":{"type":"ephemeral"}}]}`, nil},
	},
	OpenAIResponses: {
		"bearer-auth":                     {`{"model":"gpt-4.1"}`, http.Header{"Authorization": {"Basic x"}}},
		"no-beta-header":                  {`{"model":"gpt-4.1"}`, http.Header{"Authorization": {"Bearer k"}, "Openai-Beta": {"assistants=v2"}}},
		"sampling-on-reasoning-models":    {`{"model":"gpt-5.4","reasoning":{"effort":"high"},"temperature":0.2}`, nil},
		"store-false-encrypted-reasoning": {`{"model":"gpt-5.4","store":false,"include":["reasoning.encrypted_content"],"input":[{"type":"reasoning","id":"rs_1","summary":[]}]}`, nil},
		"outputs-answer-calls":            {`{"input":[{"type":"function_call_output","call_id":"c1","output":"x"}]}`, nil},
		"function-name-pattern":           {`{"tools":[{"type":"function","name":"a.b","parameters":{}}]}`, nil},
		"strict-schema-closed":            {`{"tools":[{"type":"function","name":"a","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}]}`, nil},
	},
	OpenAIChat: {
		"bearer-auth":                  {`{"model":"gpt-4.1"}`, http.Header{}},
		"no-beta-header":               {`{"model":"gpt-4.1"}`, http.Header{"Authorization": {"Bearer k"}, "Openai-Beta": {"x"}}},
		"sampling-on-reasoning-models": {`{"model":"o3","temperature":0.2}`, nil},
		"tool-messages-answer-calls":   {`{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{}"}}]},{"role":"user","content":"x"}]}`, nil},
		"function-name-pattern":        {`{"tools":[{"type":"function","function":{"name":"a b"}}]}`, nil},
		"strict-schema-closed":         {`{"tools":[{"type":"function","function":{"name":"a","strict":true,"parameters":{"type":"object","properties":{}}}}]}`, nil},
	},
}

// TestEveryRuleCanFail checks each rule against a request made to break
// it, and that every rule has such a request, a source and a unique ID.
func TestEveryRuleCanFail(t *testing.T) {
	for _, provider := range []string{Anthropic, OpenAIResponses, OpenAIChat} {
		seen := map[string]bool{}
		for _, rule := range Rules(provider) {
			t.Run(provider+"/"+rule.ID, func(t *testing.T) {
				if seen[rule.ID] {
					t.Fatalf("rule ID %q is used twice", rule.ID)
				}
				seen[rule.ID] = true
				if !strings.HasPrefix(rule.Source, "https://") {
					t.Errorf("source %q is not a documentation address", rule.Source)
				}
				c, ok := breaking[provider][rule.ID]
				if !ok {
					t.Fatal("no request breaks this rule in the test")
				}
				req, err := NewRequest([]byte(c.body), c.header)
				if err != nil {
					t.Fatal(err)
				}
				if rule.Check(req) == nil {
					t.Errorf("the rule passes %s", c.body)
				}
			})
		}
		if len(seen) != len(breaking[provider]) {
			t.Errorf("%s: %d rules, %d breaking requests", provider, len(seen), len(breaking[provider]))
		}
	}
}
