package tools

// The counting keywords of a schema (minLength, maxItems, ...) bound a
// length or a number of members. The validator holds each one as a Go int
// and keeps only its low 64 bits, so a count above 2^64 would wrap to a
// small one: minLength 18446744073709551617 would accept a string of two
// characters. CompileSchema refuses every count larger than maxCount
// instead, naming the keyword by its JSON Pointer.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
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
// maxCount, in every subschema of doc: those in the document's schema
// positions (which include $defs no $ref uses) and those the validator
// compiled elsewhere (where a $ref found them). The error lists each of
// them, sorted by JSON Pointer. A pointer is built only for a count that
// is refused, so the walk costs no more than reading the document.
func checkCounts(doc any, root *jsonschema.Schema) error {
	c := countCheck{visited: map[uintptr]bool{}}
	c.schema(doc, nil)
	seen := map[*jsonschema.Schema]bool{}
	stack := []*jsonschema.Schema{root}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		stack = appendSubschemas(stack, s)
		_, ptr, ok := strings.Cut(s.Location, "#")
		if !ok {
			continue
		}
		if obj, ok := resolvePointer(doc, ptr).(map[string]any); ok && !c.visited[identity(obj)] {
			c.visited[identity(obj)] = true
			c.counts(obj, func() string { return ptr })
		}
	}
	if len(c.found) == 0 {
		return nil
	}
	slices.Sort(c.found)
	c.found = slices.Compact(c.found)
	return fmt.Errorf("%w: %s (the largest count a schema may state is %s)",
		ErrInvalidSchema, strings.Join(c.found, "; "), maxCount.RatString())
}

// Where a schema document holds subschemas, by keyword.
var (
	schemaKeywords     = []string{"not", "if", "then", "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contains", "additionalProperties", "additionalItems", "contentSchema", "items"}
	schemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	schemaMapKeywords  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// countCheck walks a schema document and collects its refused counts.
type countCheck struct {
	visited map[uintptr]bool // the schema objects checked
	found   []string         // "pointer: value is too large"
}

// identity is the identity of a decoded JSON object.
func identity(obj map[string]any) uintptr { return reflect.ValueOf(obj).Pointer() }

// schema checks the schema v, found at the path of reference tokens at,
// and its subschemas.
func (c *countCheck) schema(v any, at []string) {
	obj, ok := v.(map[string]any)
	if !ok || c.visited[identity(obj)] {
		return
	}
	c.visited[identity(obj)] = true
	c.counts(obj, func() string { return pointerOf(at) })
	for _, k := range schemaKeywords {
		if sub, ok := obj[k]; ok {
			c.schema(sub, append(at, k))
		}
	}
	for _, k := range schemaListKeywords {
		list, _ := obj[k].([]any)
		for i, sub := range list {
			c.schema(sub, append(at, k, strconv.Itoa(i)))
		}
	}
	for _, k := range schemaMapKeywords {
		m, _ := obj[k].(map[string]any)
		for name, sub := range m {
			c.schema(sub, append(at, k, name))
		}
	}
}

// counts appends "pointer: value is too large" for each count keyword of
// the schema object obj larger than maxCount; ptr returns obj's pointer.
func (c *countCheck) counts(obj map[string]any, ptr func() string) {
	for _, k := range countKeywords {
		v, ok := obj[k]
		if !ok || isSmallCount(v) {
			continue
		}
		n, ok := new(big.Rat).SetString(fmt.Sprint(v))
		if !ok || n.Cmp(maxCount) <= 0 {
			continue // not a number: the metaschema has refused it already
		}
		c.found = append(c.found, fmt.Sprintf("%s/%s: %s is too large", ptr(), escapeToken(k), v))
	}
}

// isSmallCount reports whether v is a count of at most 15 digits, below
// maxCount without reading it as a number.
func isSmallCount(v any) bool {
	n, ok := v.(json.Number)
	if !ok || len(n) == 0 || len(n) > 15 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// pointerOf returns the JSON Pointer of a path of reference tokens.
func pointerOf(at []string) string {
	var sb strings.Builder
	for _, t := range at {
		sb.WriteByte('/')
		sb.WriteString(escapeToken(t))
	}
	return sb.String()
}

// resolvePointer returns the value at the JSON Pointer ptr in doc, or nil.
func resolvePointer(doc any, ptr string) any {
	if ptr != "" && ptr[0] != '/' {
		return nil // an anchor, not a pointer
	}
	v := doc
	for ptr != "" {
		ptr = ptr[1:]
		tok := ptr
		if i := strings.IndexByte(ptr, '/'); i >= 0 {
			tok, ptr = ptr[:i], ptr[i:]
		} else {
			ptr = ""
		}
		if strings.IndexByte(tok, '~') >= 0 {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func escapeToken(t string) string {
	if strings.ContainsAny(t, "~/") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return t
}

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
