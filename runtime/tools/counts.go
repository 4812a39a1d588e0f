package tools

// The counting keywords of a schema (minLength, maxItems, ...) bound a
// length or a number of members. The validator holds each one as a Go int
// and keeps only its low 64 bits, so a count above 2^64 would wrap to a
// small one: minLength 18446744073709551617 would accept a string of two
// characters. CompileSchema refuses every count larger than maxCount
// instead, naming the keyword by its JSON Pointer.

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// countKeywords are the keywords whose value is a non-negative integer
// that the validator keeps as an int.
var countKeywords = []string{
	"minLength", "maxLength",
	"minItems", "maxItems",
	"minProperties", "maxProperties",
	"minContains", "maxContains",
}

// maxCount is the largest count a schema may state: 2^53-1, the largest
// integer that every JSON parser reads exactly (RFC 8259, section 6), so
// that a schema means the same bound to every client that reads it; and
// never more than an int holds.
var maxCount = new(big.Rat).SetInt64(min(1<<53-1, math.MaxInt))

// checkCounts refuses the count keywords whose value is larger than
// maxCount, in every subschema of doc: those the validator compiled
// (which a $ref may find anywhere in the document) and those in the
// document's schema positions (which include $defs no $ref uses). The
// error lists each of them, sorted by JSON Pointer.
func checkCounts(doc any, root *jsonschema.Schema) error {
	ptrs := map[string]bool{}
	schemaPointers(ptrs, "", doc)
	seen := map[*jsonschema.Schema]bool{}
	stack := []*jsonschema.Schema{root}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		if _, ptr, ok := strings.Cut(s.Location, "#"); ok {
			ptrs[ptr] = true
		}
		stack = appendSubschemas(stack, s)
	}
	var found []string
	for ptr := range ptrs {
		found = appendLargeCounts(found, doc, ptr)
	}
	if len(found) == 0 {
		return nil
	}
	slices.Sort(found)
	return fmt.Errorf("%w: %s (the largest count a schema may state is %s)",
		ErrInvalidSchema, strings.Join(found, "; "), maxCount.RatString())
}

// Where a schema document holds subschemas, by keyword.
var (
	schemaKeywords     = []string{"not", "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contains", "additionalProperties", "additionalItems", "contentSchema", "items"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// schemaPointers adds ptr, the JSON Pointer of the schema v, and the
// pointers of its subschemas to ptrs.
func schemaPointers(ptrs map[string]bool, ptr string, v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	ptrs[ptr] = true
	for _, k := range schemaKeywords {
		if sub, ok := obj[k]; ok {
			schemaPointers(ptrs, ptr+"/"+escapeToken(k), sub)
		}
	}
	for _, k := range schemaListKeywords {
		list, _ := obj[k].([]any)
		for i, sub := range list {
			schemaPointers(ptrs, fmt.Sprintf("%s/%s/%d", ptr, k, i), sub)
		}
	}
	for _, k := range schemaMapKeywords {
		m, _ := obj[k].(map[string]any)
		for name, sub := range m {
			schemaPointers(ptrs, ptr+"/"+escapeToken(k)+"/"+escapeToken(name), sub)
		}
	}
}

// appendLargeCounts appends "pointer: value is too large" for each count
// keyword larger than maxCount of the schema object at the JSON Pointer
// ptr in doc.
func appendLargeCounts(found []string, doc any, ptr string) []string {
	obj, ok := resolvePointer(doc, ptr).(map[string]any)
	if !ok {
		return found // a boolean schema has no keywords
	}
	for _, k := range countKeywords {
		v, ok := obj[k]
		if !ok {
			continue
		}
		n, ok := new(big.Rat).SetString(fmt.Sprint(v))
		if !ok || n.Cmp(maxCount) <= 0 {
			continue // not a number: the metaschema has refused it already
		}
		found = append(found, fmt.Sprintf("%s/%s: %s is too large", ptr, escapeToken(k), v))
	}
	return found
}

// resolvePointer returns the value at the JSON Pointer ptr in doc, or nil.
func resolvePointer(doc any, ptr string) any {
	if ptr == "" {
		return doc
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil // an anchor, not a pointer
	}
	v := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func escapeToken(t string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(t) }

// appendSubschemas appends every subschema s refers to.
func appendSubschemas(stack []*jsonschema.Schema, s *jsonschema.Schema) []*jsonschema.Schema {
	stack = append(stack, s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else,
		s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020,
		s.UnevaluatedItems, s.ContentSchema)
	if s.DynamicRef != nil {
		stack = append(stack, s.DynamicRef.Ref)
	}
	stack = append(stack, s.AllOf...)
	stack = append(stack, s.AnyOf...)
	stack = append(stack, s.OneOf...)
	stack = append(stack, s.PrefixItems...)
	for _, sub := range s.Properties {
		stack = append(stack, sub)
	}
	for _, sub := range s.PatternProperties {
		stack = append(stack, sub)
	}
	for _, sub := range s.DependentSchemas {
		stack = append(stack, sub)
	}
	for _, d := range s.Dependencies {
		if sub, ok := d.(*jsonschema.Schema); ok {
			stack = append(stack, sub)
		}
	}
	for _, x := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch x := x.(type) {
		case *jsonschema.Schema:
			stack = append(stack, x)
		case []*jsonschema.Schema:
			stack = append(stack, x...)
		}
	}
	return stack
}
