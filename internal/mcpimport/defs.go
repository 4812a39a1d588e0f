package mcpimport

// The definitions of a tool schema ("$defs", or draft-07's "definitions",
// of its root) and the references to them ("$ref": "#/$defs/NAME"). A
// definition of an object is a Goa type named as the definition, declared
// once however many places refer to it, so that gen writes it under $defs
// again when the schema uses it more than once; a definition of anything
// else is declared in each place that refers to it. A reference states the
// use of a type: a description, a default and examples may stand beside
// it, nothing else. A reference to a definition being decoded (a recursive
// type), to a definition the root does not have, or of any other form is a
// Problem at its JSON Pointer; so is every problem of a definition, at its
// pointer under /$defs.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// defContainers are the members of a root that hold definitions.
var defContainers = []string{"$defs", "definitions"}

// definition is one definition of the schema being decoded.
type definition struct {
	name    string
	schema  any
	pointer string
	// att is the decoded definition, nil before the first reference or
	// after a failed decoding (failed).
	att       *attr
	decoding  bool
	failed    bool
	used      bool
	canonical string // the definition's JSON, keys sorted
}

// takeDefs removes the definitions from the root m and records them; it
// returns m without them, or false after a problem.
func (d *decoder) takeDefs(m map[string]any) (map[string]any, bool) {
	d.defs = map[string]*definition{}
	for _, c := range defContainers {
		x, has := m[c]
		if !has {
			continue
		}
		defs, ok := x.(map[string]any)
		if !ok {
			d.fail("/"+escape(c), c+" is an object of schemas, got "+render(x))
			return nil, false
		}
		for _, name := range sortedKeys(defs) {
			if name == "" {
				d.fail("/"+escape(c)+"/", "a definition with no name: the DSL names every type")
				return nil, false
			}
			raw, _ := json.Marshal(defs[name]) // decoded from JSON: it encodes
			d.defs[c+"/"+name] = &definition{name: name, schema: defs[name], pointer: "/" + escape(c) + "/" + escape(name), canonical: string(raw)}
		}
		m = withoutKey(m, c)
	}
	return m, true
}

// noteUnused notes the definitions no reference used: they change nothing
// a schema accepts, and the design does not write them.
func (d *decoder) noteUnused() {
	keys := make([]string, 0, len(d.defs))
	for k := range d.defs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if def := d.defs[k]; !def.used {
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: def.pointer, Keyword: strings.SplitN(k, "/", 2)[0]})
		}
	}
}

// reference decodes m, a schema with "$ref", at pointer.
func (d *decoder) reference(m map[string]any, pointer string) *attr {
	ref := m["$ref"]
	s, _ := ref.(string)
	key, ok := parseDefRef(s)
	def := d.defs[key]
	if !ok || def == nil {
		d.fail(pointer+"/$ref", "reference "+render(ref)+" is to no definition of the schema's $defs: the DSL declares a reference as a type of the same schema")
		return nil
	}
	if def.decoding {
		d.fail(pointer+"/$ref", fmt.Sprintf("reference to definition %q inside itself: the DSL declares no recursive types", def.name))
		return nil
	}
	use := map[string]any{}
	for _, k := range sortedKeys(m) {
		switch k {
		case "$ref":
		case "description", "default", "examples":
			use[k] = m[k]
		default:
			if slices.Contains(annotationOnly, k) {
				d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: k})
				continue
			}
			d.fail(pointer+"/"+escape(k), "keyword "+strconv.Quote(k)+" beside $ref: the DSL states the use of a type with a description, a default and examples only")
			return nil
		}
	}
	def.used = true
	if def.failed {
		return nil
	}
	if def.att == nil {
		def.decoding = true
		def.att = d.attr(def.schema, def.pointer, d.prefix+gonames.UserType(def.name))
		def.decoding = false
		if def.att == nil {
			def.failed = true
			return nil
		}
		if def.att.kind == kindObject {
			def.att.typeName, def.att.goaName, def.att.canonical = d.prefix+gonames.UserType(def.name), def.name, def.canonical
		}
	}
	var a *attr
	if def.att.kind == kindObject {
		a = &attr{kind: kindObject, typeName: def.att.typeName, shared: def.att}
	} else {
		c := *def.att
		a = &c
	}
	if x, has := use["description"]; has {
		desc, isString := x.(string)
		if !isString {
			d.fail(pointer+"/description", "a description is a string, got "+render(x))
			return nil
		}
		a.description = desc
	}
	take := func(k string) (any, bool) {
		x, ok := use[k]
		return x, ok
	}
	// The default and examples beside the reference; a definition's own
	// stay where the use states none.
	if !d.validations(take, a, pointer) {
		return nil
	}
	return a
}

// parseDefRef returns "container/name" of a reference to a definition of
// the root, "#/$defs/NAME" or "#/definitions/NAME", NAME a JSON Pointer
// token in a URI fragment.
func parseDefRef(ref string) (string, bool) {
	frag, found := strings.CutPrefix(ref, "#/")
	if !found {
		return "", false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", false
	}
	container, token, found := strings.Cut(frag, "/")
	if !found || !slices.Contains(defContainers, container) || strings.Contains(token, "/") {
		return "", false
	}
	return container + "/" + strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~"), true
}
