package mcp

// References in the canonical form of a schema: a schema may state a
// subschema in place or once under "$defs" (or draft-07's "definitions")
// with a "$ref" from each place that uses it, and both spellings accept the
// same values. gen writes a type used in more than one place of a tool
// schema as a definition and a type used once in place; a server may do
// either. Before the comparison, each reference to a definition of the
// document's root is replaced by the definition itself, so that the two
// spellings have one canonical form:
//
//   - a reference is "#/$defs/NAME" or "#/definitions/NAME", NAME a JSON
//     Pointer token in a URI fragment (percent-encoded, ~0 and ~1);
//   - a reference with no keyword beside it but annotations is replaced by
//     the definition; so is any reference of a draft-07 document, which
//     ignores the keywords beside $ref;
//   - in 2020-12, keywords beside $ref apply with the definition: they are
//     added to it when each is an assertion on the value itself
//     (inlineAssertions) that the definition does not state; otherwise
//     the reference stays;
//   - a reference to a definition that reaches itself through references
//     (recursion), to a definition the root does not have, or of any
//     other form stays;
//   - definitions that no remaining reference reaches are dropped: they
//     accept nothing and reject nothing.
//
// Each reference gets its own copy of the definition, so a document whose
// definitions each refer twice to the next one expands to twice as many
// values per level. Inlining counts the JSON values it writes and stops
// once they exceed a budget (Limits.MaxSchemaNodes): expandedNodes checks a
// schema against the budget before anything compares its expanded form.

import (
	"net/url"
	"slices"
	"strings"
)

// inlineAssertions are the keywords beside a $ref that are merged into the
// definition: each asserts on the instance alone, so it means the same
// beside the definition's keywords as it does beside $ref.
var inlineAssertions = []string{"type", "enum", "const", "format", "pattern", "minLength", "maxLength",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "required", "dependentRequired",
	"contentEncoding", "contentMediaType"}

// defContainers are the members of a root that hold definitions.
var defContainers = []string{"$defs", "definitions"}

// refInliner replaces the references of one document.
type refInliner struct {
	defs    map[string]map[string]any // by container, then name
	draft07 bool
	// inlining holds the definitions being inlined, as "container/name".
	inlining map[string]bool
	// recursive holds the definitions that reach themselves.
	recursive map[string]bool
	// nodes counts the JSON values written; past budget (when positive)
	// inlining stops and the result is not to be used.
	nodes, budget int
}

// over reports whether the values written exceed the budget.
func (r *refInliner) over() bool { return r.budget > 0 && r.nodes > r.budget }

// inlineRefs returns the schema v (decoded from JSON) with its references
// to its root's definitions replaced by the definitions; v is not
// modified.
func inlineRefs(v any) any {
	out, _ := inlineRefsWithin(v, 0)
	return out
}

// expandedNodes returns the JSON values of the schema v once its
// references are inlined, and false when they exceed limit (then the count
// is where inlining stopped, just past limit). Its cost is bounded by
// limit, however many times the definitions refer to one another.
func expandedNodes(v any, limit int) (int, bool) {
	out, r := inlineRefsWithin(v, limit)
	if r == nil { // no definitions: nothing is copied
		n := jsonValues(out)
		return n, n <= limit
	}
	return r.nodes, !r.over()
}

// inlineRefsWithin is inlineRefs writing at most budget JSON values (0: no
// bound); it returns the inliner, nil when v has no definitions.
func inlineRefsWithin(v any, budget int) (any, *refInliner) {
	root, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	r := &refInliner{defs: map[string]map[string]any{}, inlining: map[string]bool{}, budget: budget}
	for _, c := range defContainers {
		if m, ok := root[c].(map[string]any); ok {
			r.defs[c] = m
		}
	}
	if len(r.defs) == 0 {
		return v, nil
	}
	if d, ok := root["$schema"].(string); ok && strings.TrimSuffix(d, "#") == draft07 {
		r.draft07 = true
	}
	r.recursive = recursiveDefs(r.defs)
	// Definitions are walked each as the one being inlined, so that a
	// recursive one keeps its own reference and is a fixed point.
	walked := map[string]map[string]any{}
	for c, defs := range r.defs {
		w := make(map[string]any, len(defs))
		for n, d := range defs {
			r.inlining[c+"/"+n] = true
			w[n] = r.schema(d)
			delete(r.inlining, c+"/"+n)
		}
		walked[c] = w
		r.nodes++
	}
	body := make(map[string]any, len(root))
	for k, x := range root {
		if !slices.Contains(defContainers, k) {
			body[k] = x
		}
	}
	res := r.schema(body)
	out, ok := res.(map[string]any)
	switch {
	case ok:
	case res == true: // the root referred to a definition true
		out = map[string]any{}
		r.nodes++
	default: // or to one that is no schema object: the reference stays
		out = body
		r.nodes += jsonValues(body)
	}
	for c, w := range walked {
		out[c] = w
	}
	if r.over() {
		return out, r
	}
	pruneDefs(out)
	return out, r
}

// structural keywords beside $ref mean the same beside the definition: the
// document's dialect and identity, and where its definitions are.
var structural = []string{"$schema", "$id", "$defs", "definitions"}

// schema returns the schema v with its references replaced.
func (r *refInliner) schema(v any) any {
	if r.over() {
		return v
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.nodes += jsonValues(v)
		return v
	}
	if ref, ok := m["$ref"].(string); ok {
		if out, ok := r.inline(m, ref); ok {
			return out
		}
	}
	r.nodes++
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
		if !subschemaPosition(k, x) {
			r.nodes += jsonValues(x)
		}
	}
	r.subschemas(out)
	return out
}

// subschemaPosition reports whether the member k: x of a schema holds
// subschemas that subschemas walks (and counts).
func subschemaPosition(k string, x any) bool {
	switch x.(type) {
	case map[string]any:
		return slices.Contains(oneSubschema, k) || slices.Contains(subschemaMaps, k)
	case []any:
		return slices.Contains(oneSubschema, k) || slices.Contains(subschemaLists, k)
	}
	return false
}

// jsonValues counts the values of a decoded JSON value, itself included.
func jsonValues(v any) int {
	n := 1
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			n += jsonValues(x)
		}
	case []any:
		for _, x := range v {
			n += jsonValues(x)
		}
	}
	return n
}

// subschemas replaces the references in the subschemas of m, in place.
func (r *refInliner) subschemas(m map[string]any) {
	for _, k := range oneSubschema {
		switch x := m[k].(type) {
		case map[string]any:
			m[k] = r.schema(x)
		case []any:
			m[k] = r.list(x)
		}
	}
	for _, k := range subschemaMaps {
		if x, ok := m[k].(map[string]any); ok {
			r.nodes++
			c := make(map[string]any, len(x))
			for name, s := range x {
				c[name] = r.schema(s)
			}
			m[k] = c
		}
	}
	for _, k := range subschemaLists {
		if x, ok := m[k].([]any); ok {
			m[k] = r.list(x)
		}
	}
}

func (r *refInliner) list(x []any) []any {
	r.nodes++
	c := make([]any, len(x))
	for i, s := range x {
		c[i] = r.schema(s)
	}
	return c
}

// inline returns the definition that m, a schema with $ref ref, stands
// for, with the keywords beside ref merged in; false when m stays.
func (r *refInliner) inline(m map[string]any, ref string) (any, bool) {
	container, name, ok := parseDefRef(ref)
	if !ok {
		return nil, false
	}
	def, ok := r.defs[container][name]
	key := container + "/" + name
	if !ok || r.inlining[key] || r.recursive[key] {
		return nil, false
	}
	var siblings, kept []string
	for k := range m {
		switch {
		case k == "$ref" || slices.Contains(annotations, k):
		case slices.Contains(structural, k):
			kept = append(kept, k)
		case !r.draft07: // draft-07 ignores them
			siblings = append(siblings, k)
		}
	}
	defMap, isMap := def.(map[string]any)
	for _, k := range append(siblings, structural...) {
		if _, stated := defMap[k]; stated {
			return nil, false
		}
	}
	for _, k := range siblings {
		if !slices.Contains(inlineAssertions, k) || (!isMap && def != true) {
			return nil, false
		}
	}
	r.inlining[key] = true
	resolved := r.schema(def)
	delete(r.inlining, key)
	if len(siblings)+len(kept) == 0 {
		return resolved, true
	}
	if resolved == false {
		return nil, false
	}
	out := map[string]any{}
	if rm, ok := resolved.(map[string]any); ok {
		for k, x := range rm {
			out[k] = x
		}
	}
	for _, k := range append(siblings, kept...) {
		out[k] = m[k]
		r.nodes += jsonValues(m[k])
	}
	return out, true
}

// parseDefRef returns the container and the name of a reference to a
// definition of the root, "#/$defs/NAME" or "#/definitions/NAME".
func parseDefRef(ref string) (container, name string, ok bool) {
	frag, found := strings.CutPrefix(ref, "#/")
	if !found {
		return "", "", false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", "", false
	}
	container, token, found := strings.Cut(frag, "/")
	if !found || !slices.Contains(defContainers, container) || strings.Contains(token, "/") {
		return "", "", false
	}
	return container, strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~"), true
}

// recursiveDefs returns the definitions that reach themselves through
// references, as "container/name".
func recursiveDefs(defs map[string]map[string]any) map[string]bool {
	next := map[string][]string{}
	for c, m := range defs {
		for n, d := range m {
			collectRefs(d, false, func(ref string) {
				if rc, rn, ok := parseDefRef(ref); ok {
					next[c+"/"+n] = append(next[c+"/"+n], rc+"/"+rn)
				}
			})
		}
	}
	out := map[string]bool{}
	for start := range next {
		seen := map[string]bool{}
		queue := slices.Clone(next[start])
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			if k == start {
				out[start] = true
				break
			}
			if !seen[k] {
				seen[k] = true
				queue = append(queue, next[k]...)
			}
		}
	}
	return out
}

// pruneDefs drops the definitions of root that no reference outside the
// definitions reaches, directly or through other definitions.
func pruneDefs(root map[string]any) {
	reached := map[string]bool{}
	var queue []string
	visit := func(v any, skipDefs bool) {
		collectRefs(v, skipDefs, func(ref string) {
			if c, n, ok := parseDefRef(ref); ok && !reached[c+"/"+n] {
				reached[c+"/"+n] = true
				queue = append(queue, c+"/"+n)
			}
		})
	}
	visit(root, true)
	for len(queue) > 0 {
		key := queue[0]
		queue = queue[1:]
		c, n, _ := strings.Cut(key, "/")
		if defs, ok := root[c].(map[string]any); ok {
			visit(defs[n], false)
		}
	}
	for _, c := range defContainers {
		defs, ok := root[c].(map[string]any)
		if !ok {
			continue
		}
		kept := map[string]any{}
		for n, d := range defs {
			if reached[c+"/"+n] {
				kept[n] = d
			}
		}
		root[c] = kept // an empty one is dropped as a default
	}
}

// collectRefs calls found with each $ref of the schema v; with skipDefs,
// the root's definitions are not visited.
func collectRefs(v any, skipDefs bool, found func(string)) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		found(ref)
	}
	for _, k := range oneSubschema {
		switch x := m[k].(type) {
		case map[string]any:
			collectRefs(x, false, found)
		case []any:
			for _, s := range x {
				collectRefs(s, false, found)
			}
		}
	}
	for _, k := range subschemaMaps {
		if skipDefs && slices.Contains(defContainers, k) {
			continue
		}
		if x, ok := m[k].(map[string]any); ok {
			for _, s := range x {
				collectRefs(s, false, found)
			}
		}
	}
	for _, k := range subschemaLists {
		if x, ok := m[k].([]any); ok {
			for _, s := range x {
				collectRefs(s, false, found)
			}
		}
	}
}
