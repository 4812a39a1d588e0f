package anthropic

import (
	"encoding/json"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// The request limits of the Messages API that this package checks before
// sending, each from the provider's documentation.
const (
	// maxStrictTools is the most tools declared strict in one request
	// (structured outputs, "JSON Schema limitations").
	maxStrictTools = 20
	// maxStrictOptional is the most optional parameters (properties an
	// object schema does not require) across a request's strict schemas.
	maxStrictOptional = 24
	// maxStrictUnions is the most parameters with union types (anyOf, or a
	// list of types) across a request's strict schemas.
	maxStrictUnions = 16
	// maxDeferredTools is the most tools one request declares with
	// defer_loading (tool search tool).
	maxDeferredTools = 10000
)

// checkStrictLimits checks the strict tools among tools, the tools a
// request sends, against the model's strict limits: the number of strict
// tools, and the optional and union-typed parameters of their schemas.
func checkStrictLimits(tools []model.ToolDefinition, strict model.StrictLimits) error {
	var count, optional, unions int
	for _, t := range tools {
		if !t.Strict {
			continue
		}
		count++
		var root any
		if err := json.Unmarshal(t.Parameters, &root); err != nil {
			return invalid(-1, -1, RuleStrict, "strict tool %q: parameters: %v", t.Name, err)
		}
		o, u := schemaComplexity(root)
		optional += o
		unions += u
	}
	switch {
	case strict.MaxTools > 0 && count > strict.MaxTools:
		return invalid(-1, -1, RuleStrict, "%d strict tools, deferred ones included, would be sent; the model accepts at most %d", count, strict.MaxTools)
	case optional > maxStrictOptional:
		return invalid(-1, -1, RuleStrictComplexity, "the strict schemas have %d optional parameters; the API accepts at most %d across a request", optional, maxStrictOptional)
	case unions > maxStrictUnions:
		return invalid(-1, -1, RuleStrictComplexity, "the strict schemas have %d parameters with union types; the API accepts at most %d across a request", unions, maxStrictUnions)
	}
	return nil
}

// schemaComplexity counts, in a JSON Schema and every schema nested in it
// (properties, items, anyOf branches, $defs), the properties their object
// does not require and the properties whose schema is a union: anyOf, or
// "type" given as a list of more than one type.
func schemaComplexity(node any) (optional, unions int) {
	m, ok := node.(map[string]any)
	if !ok {
		return 0, 0
	}
	if props, ok := m["properties"].(map[string]any); ok {
		required := map[string]bool{}
		if list, ok := m["required"].([]any); ok {
			for _, r := range list {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
		for name, p := range props {
			if !required[name] {
				optional++
			}
			if isUnion(p) {
				unions++
			}
		}
	}
	var nested []any
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			nested = append(nested, p)
		}
	}
	if defs, ok := m["$defs"].(map[string]any); ok {
		for _, d := range defs {
			nested = append(nested, d)
		}
	}
	if list, ok := m["anyOf"].([]any); ok {
		nested = append(nested, list...)
	}
	nested = append(nested, m["items"])
	for _, n := range nested {
		o, u := schemaComplexity(n)
		optional += o
		unions += u
	}
	return optional, unions
}

func isUnion(node any) bool {
	m, ok := node.(map[string]any)
	if !ok {
		return false
	}
	if _, ok := m["anyOf"]; ok {
		return true
	}
	types, ok := m["type"].([]any)
	return ok && len(types) > 1
}
