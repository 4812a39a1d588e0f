package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
)

// Providers, as the rules name them.
const (
	Anthropic       = "anthropic"
	OpenAIResponses = "openai-responses"
	OpenAIChat      = "openai-chat"
)

// Rule is one documented constraint on a request.
type Rule struct {
	// ID names the rule in failures.
	ID string
	// Provider is the API the rule holds for.
	Provider string
	// Source is the documentation the rule comes from: page and section.
	Source string
	// Headers marks a rule on headers, checked only where the request's
	// headers were captured.
	Headers bool
	// Check returns why the request breaks the rule, or nil.
	Check func(r *Request) error
}

// Request is a request as a provider receives it: the decoded JSON body
// and, when captured, the headers.
type Request struct {
	Body   map[string]any
	Header http.Header
}

// NewRequest decodes body.
func NewRequest(body []byte, header http.Header) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	return &Request{Body: m, Header: header}, nil
}

// Rules returns the rules of provider, in a fixed order.
func Rules(provider string) []Rule {
	var out []Rule
	for _, r := range allRules() {
		if r.Provider == provider {
			out = append(out, r)
		}
	}
	return out
}

func allRules() []Rule {
	return append(append(append(anthropicRules(), toolChangeRules()...), responsesRules()...), chatRules()...)
}

// Violations applies the rules of provider to r and returns one line per
// broken rule: its ID, why, and its source.
func Violations(provider string, r *Request) []string {
	var out []string
	for _, rule := range Rules(provider) {
		if rule.Headers && r.Header == nil {
			continue
		}
		if err := rule.Check(r); err != nil {
			out = append(out, fmt.Sprintf("%s: %v (%s)", rule.ID, err, rule.Source))
		}
	}
	return out
}

// Helpers over decoded JSON.

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func truthy(v any) bool {
	b, _ := v.(bool)
	return b
}

// toolName is the name pattern both providers document for tools.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
