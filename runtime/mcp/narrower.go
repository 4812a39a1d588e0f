package mcp

// A declared input schema narrower than the server's. Every call's
// arguments are validated against the declared schema before they are
// sent, so a declaration that accepts a subset of what the server accepts
// is safe to call: adoptNarrower gives the server's schema the declared
// constraint wherever the declared one is provably within it, before the
// two are compared. A result schema is never narrowed: the declared result
// must accept everything the server may return.
//
// The constraints a declaration may narrow, at one place of both schemas:
//
//   - type: a declared type the server's list of types holds ("boolean"
//     where the server has ["boolean","string"], "string" where it has
//     ["null","string"]), or "integer" where it has "number";
//   - anyOf / oneOf: the server's alternatives where the declared schema
//     equals one of its branches, the keywords beside them merged in
//     ("string" where it has anyOf [string, null]); for oneOf, only a
//     branch whose type no other branch has, which a value of it matches
//     alone;
//   - lower bounds (minimum, exclusiveMinimum, minLength, minItems,
//     minProperties) no lower than the server's, upper bounds no higher;
//   - enum: a subset of the server's, or any enum where it has none;
//   - pattern and format where the server states none;
//   - required: a superset of the server's.
//
// The places visited are those adoptStricter visits. Both arguments are
// canonical forms; served is modified.

import (
	"encoding/json"
	"math/big"
	"slices"
)

// adoptNarrower gives served the declared constraints that are within
// its own (see the file's comment).
func adoptNarrower(declared, served any) {
	d, ok1 := declared.(map[string]any)
	s, ok2 := served.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	if _, dUnion := d["anyOf"]; !dUnion {
		narrowBranch(d, s)
	}
	narrowType(d, s)
	for _, k := range []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"} {
		narrowBound(d, s, k, 1)
	}
	for _, k := range []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"} {
		narrowBound(d, s, k, -1)
	}
	if de, ok := d["enum"].([]any); ok {
		se, has := s["enum"].([]any)
		if !has && s["enum"] == nil || has && subset(de, se) {
			s["enum"] = de
		}
	}
	for _, k := range []string{"pattern", "format"} {
		if _, has := s[k]; !has && d[k] != nil {
			s[k] = d[k]
		}
	}
	if dr, ok := d["required"].([]any); ok {
		sr, _ := s["required"].([]any)
		if subset(sr, dr) {
			s["required"] = dr
		}
	}
	for _, k := range []string{"additionalProperties", "items", "contains", "then", "else"} {
		adoptNarrower(d[k], s[k])
	}
	for _, k := range []string{"properties", "patternProperties", "dependentSchemas"} {
		dm, ok1 := d[k].(map[string]any)
		sm, ok2 := s[k].(map[string]any)
		if ok1 && ok2 {
			for name, x := range dm {
				adoptNarrower(x, sm[name])
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "prefixItems"} {
		dl, ok1 := d[k].([]any)
		sl, ok2 := s[k].([]any)
		if ok1 && ok2 {
			for i := range min(len(dl), len(sl)) {
				adoptNarrower(dl[i], sl[i])
			}
		}
	}
}

// narrowType gives s the declared type where the server's admits it.
func narrowType(d, s map[string]any) {
	dt, ok := d["type"].(string)
	if !ok {
		return
	}
	switch st := s["type"].(type) {
	case []any:
		if slices.Contains(st, any(dt)) || dt == "integer" && slices.Contains(st, any("number")) {
			s["type"] = dt
		}
	case string:
		if dt == "integer" && st == "number" {
			s["type"] = dt
		}
	}
}

// narrowBranch replaces the server's anyOf or oneOf with the branch the
// declared schema equals, the keywords beside the alternatives merged in.
func narrowBranch(d, s map[string]any) {
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, ok := s[key].([]any)
		if !ok {
			continue
		}
		for i, b := range branches {
			bm, ok := b.(map[string]any)
			if !ok || key == "oneOf" && !disjointByType(branches, i) {
				continue
			}
			candidate := make(map[string]any, len(s)+len(bm))
			for k, v := range s {
				if k != key {
					candidate[k] = v
				}
			}
			conflict := false
			for k, v := range bm {
				if o, has := candidate[k]; has && !sameJSON(o, v) {
					conflict = true
				}
				candidate[k] = v
			}
			if conflict {
				continue
			}
			trial := deepCopy(candidate).(map[string]any)
			adoptNarrower(d, trial)
			adoptStricter(d, trial)
			if diffValues("", d, trial) == nil {
				clear(s)
				for k, v := range candidate {
					s[k] = v
				}
				return
			}
		}
	}
}

// disjointByType reports whether branch i of a oneOf states a type no
// other branch may have: a value of it matches that branch only, so the
// oneOf accepts it as the branch does.
func disjointByType(branches []any, i int) bool {
	bm, _ := branches[i].(map[string]any)
	t, ok := bm["type"].(string)
	if !ok {
		return false
	}
	for j, b := range branches {
		if j == i {
			continue
		}
		om, _ := b.(map[string]any)
		switch ot := om["type"].(type) {
		case string:
			if ot == t || ot == "number" && t == "integer" || ot == "integer" && t == "number" {
				return false
			}
		case []any:
			if slices.Contains(ot, any(t)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// narrowBound gives s the declared bound k where it is within the
// server's: sign 1 for a lower bound (the declared one no lower), -1 for
// an upper one.
func narrowBound(d, s map[string]any, k string, sign int) {
	dn, ok := d[k].(json.Number)
	if !ok {
		return
	}
	sn, has := s[k].(json.Number)
	if !has {
		if _, present := s[k]; !present {
			s[k] = dn
		}
		return
	}
	a, ok1 := new(big.Rat).SetString(string(dn))
	b, ok2 := new(big.Rat).SetString(string(sn))
	if ok1 && ok2 && a.Cmp(b)*sign >= 0 {
		s[k] = dn
	}
}

// subset reports whether every value of a is one of b's, by their JSON.
func subset(a, b []any) bool {
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y any) bool { return render(x) == render(y) }) {
			return false
		}
	}
	return true
}

// sameJSON reports whether two values decoded from canonical JSON are
// equal.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// deepCopy copies a value decoded from JSON.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// adoptNullResult lets a declared result property be optional where the
// server's may be null: where the server's property admits null (null in
// its list of types, or an anyOf / oneOf branch {"type":"null"}) and the
// declared object does not require it, the server's property loses null
// and the server's object no longer requires it. The executor of a
// declared toolset reads a result's null member at such a property as
// absent (withoutNulls), so what the server sends still decodes. Objects
// are visited through properties, items and additionalProperties. Both
// arguments are canonical forms; served is modified.
func adoptNullResult(declared, served any) {
	d, ok1 := declared.(map[string]any)
	s, ok2 := served.(map[string]any)
	if !ok1 || !ok2 {
		return
	}
	dm, _ := d["properties"].(map[string]any)
	sm, _ := s["properties"].(map[string]any)
	dr, _ := d["required"].([]any)
	for name, x := range sm {
		sp, ok := x.(map[string]any)
		if _, declaredHere := dm[name]; !ok || !declaredHere || slices.Contains(dr, any(name)) || !dropNull(sp) {
			continue
		}
		if sr, ok := s["required"].([]any); ok {
			sr = slices.DeleteFunc(slices.Clone(sr), func(r any) bool { return r == name })
			if len(sr) == 0 {
				delete(s, "required")
			} else {
				s["required"] = sr
			}
		}
	}
	for name, x := range dm {
		adoptNullResult(x, sm[name])
	}
	for _, k := range []string{"items", "additionalProperties"} {
		adoptNullResult(d[k], s[k])
	}
}

// dropNull removes null from the values a canonical schema admits and
// reports whether it did.
func dropNull(m map[string]any) bool {
	if list, ok := m["type"].([]any); ok && slices.Contains(list, any("null")) {
		rest := slices.DeleteFunc(slices.Clone(list), func(t any) bool { return t == "null" })
		if len(rest) == 1 {
			m["type"] = rest[0]
		} else {
			m["type"] = rest
		}
		return true
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list, ok := m[key].([]any)
		if !ok {
			continue
		}
		rest := slices.DeleteFunc(slices.Clone(list), func(b any) bool {
			bm, ok := b.(map[string]any)
			return ok && len(bm) == 1 && bm["type"] == "null"
		})
		if len(rest) == len(list) || len(rest) == 0 {
			continue
		}
		m[key] = rest
		mergeAlternatives(m)
		return true
	}
	return false
}

// withoutNulls removes from a result value the null members of objects
// at the properties the declared result schema (canonical) states and
// does not require: null there reads as absent (adoptNullResult).
func withoutNulls(v, schema any) any {
	s, ok := schema.(map[string]any)
	if !ok {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		for k, e := range x {
			p, declared := props[k]
			switch {
			case declared && e == nil && !slices.Contains(required, any(k)) && !acceptsAnything(p):
				delete(x, k)
			case declared:
				x[k] = withoutNulls(e, p)
			default:
				if extra, ok := s["additionalProperties"].(map[string]any); ok {
					x[k] = withoutNulls(e, extra)
				}
			}
		}
	case []any:
		for i, e := range x {
			x[i] = withoutNulls(e, s["items"])
		}
	}
	return v
}

// acceptsAnything reports whether a canonical schema is {} (Any).
func acceptsAnything(s any) bool {
	m, ok := s.(map[string]any)
	return ok && len(m) == 0
}
