package mcpimport

// The attributes of a tool schema: what a JSON Schema document says, in the
// terms of Goa's DSL, with every keyword either declared, noted as an
// annotation or reported as a Problem.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/gonames"
)

// kind is the DSL type of an attribute.
type kind int

const (
	kindAny kind = iota
	kindString
	kindBytes
	kindInt
	kindNumber
	kindBoolean
	kindArray
	kindMap
	kindObject
)

// attr is one attribute the design declares.
type attr struct {
	kind        kind
	description string
	// elem is the element of an array or the value of a map.
	elem *attr
	// props are the properties of an object in the schema's key order
	// (sorted: JSON objects have no order the SDK keeps); required are
	// the required ones.
	props    []prop
	required []string
	// typeName names the Go type of a nested object, and its Goa type
	// unless goaName does: the name of a definition ($defs), whose
	// canonical JSON is canonical.
	typeName, goaName, canonical string
	// shared is the definition a reference to an object uses.
	shared *attr
	// Validations.
	format                         string // Goa's Format constant, "FormatURI"
	pattern                        string
	enum                           []any
	minimum, maximum, exMin, exMax *json.Number
	minLength, maxLength           *int
	def                            any
	hasDefault                     bool
	examples                       []any
	// nullable says the server's schema admits null too.
	nullable bool
}

// prop is a named property of an object.
type prop struct {
	name string
	att  *attr
}

// Problem is a part of a schema the DSL cannot declare.
type Problem struct {
	// Tool is the server's name of the tool.
	Tool string
	// Schema is "inputSchema" or "outputSchema".
	Schema string
	// Pointer is the JSON Pointer of the part in the schema.
	Pointer string
	// Reason says what the DSL cannot declare.
	Reason string
}

func (p *Problem) Error() string {
	return fmt.Sprintf("tool %q: %s at %s: %s", p.Tool, p.Schema, pointerText(p.Pointer), p.Reason)
}

// AnyProperty is a property Options.Any declares Any because its schema
// holds Problems.
type AnyProperty struct {
	// Tool, Schema and Pointer place the property.
	Tool, Schema, Pointer string
	// Typed says the server's schema states a type for it, which the
	// design does not.
	Typed bool
	// Problems are what the DSL cannot declare in its schema.
	Problems []*Problem
}

func (p *AnyProperty) String() string {
	reasons := make([]string, len(p.Problems))
	for i, x := range p.Problems {
		reasons[i] = fmt.Sprintf("at %s: %s", pointerText(x.Pointer), x.Reason)
	}
	return fmt.Sprintf("tool %q: %s at %s is declared Any (--any): %s", p.Tool, p.Schema, pointerText(p.Pointer), strings.Join(reasons, "; "))
}

// Note is an annotation of a schema that the design does not write.
type Note struct {
	Tool, Schema, Pointer, Keyword string
	// Why, when set, says what the design states instead.
	Why string
}

func (n Note) String() string {
	if n.Why != "" {
		return fmt.Sprintf("tool %q: %s at %s: %s", n.Tool, n.Schema, pointerText(n.Pointer), n.Why)
	}
	return fmt.Sprintf("tool %q: %s at %s: %q not written (an annotation the DSL has no word for, or a value it cannot state)", n.Tool, n.Schema, pointerText(n.Pointer), n.Keyword)
}

func pointerText(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// Errors are the problems of a server's schemas, all of them.
type Errors []*Problem

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, p := range e {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// ErrInvalidSchema is wrapped by the error of a schema that is not a JSON
// object.
var ErrInvalidSchema = errors.New("invalid schema")

// formats maps JSON Schema formats to Goa's Format constants: the inverse
// of the rendering gen writes (expr.SchemaFormat).
var formats = map[string]string{
	"date": "FormatDate", "date-time": "FormatDateTime", "uuid": "FormatUUID", "email": "FormatEmail",
	"hostname": "FormatHostname", "ipv4": "FormatIPv4", "ipv6": "FormatIPv6", "uri": "FormatURI", "regex": "FormatRegexp",
}

// annotationOnly are keywords that never change which values a schema
// accepts and that the DSL has no word for.
var annotationOnly = []string{"title", "$comment", "deprecated", "readOnly", "writeOnly"}

// decoder reads the schemas of one tool.
type decoder struct {
	tool, schema string
	// any declares a property holding a problem Any.
	any      bool
	problems Errors
	notes    []Note
	// declaredAny are the properties declared Any.
	declaredAny []*AnyProperty
	// atProperty says the schema decoded next is an object's property,
	// where a result may be null (an optional property).
	atProperty bool
	// output says the schema is an outputSchema: its objects must admit
	// no other properties, as every object the DSL declares.
	output bool
	// prefix starts the Go name of every type (writer.prefix).
	prefix string
	// defs are the definitions of the schema's root, by "container/name"
	// (defs.go).
	defs map[string]*definition
}

// parse decodes raw, a JSON Schema document, keeping numbers exact.
func parse(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the schema", ErrInvalidSchema)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidSchema)
	}
	return m, nil
}

// root decodes the root of a tool schema, an object whose Go type is named
// name ("EditFileArgs").
func (d *decoder) root(m map[string]any, name string) *attr {
	if s, ok := m["$schema"]; ok {
		str, _ := s.(string)
		switch strings.TrimSuffix(str, "#") {
		case "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema":
		default:
			d.fail("/$schema", fmt.Sprintf("dialect %s: gen writes JSON Schema 2020-12, and draft-07 reads the same for the keywords it declares", render(s)))
		}
		m = withoutKey(m, "$schema")
	}
	m, ok := d.takeDefs(m)
	if !ok {
		return nil
	}
	if _, typed := m["type"]; !typed && rootObject(m) {
		// MCP's tool schemas are objects: a root that states no type (and
		// nothing but object keywords) is read as one (runtime/mcp reads
		// it so too), with a note.
		m = withKey(m, "type", "object")
		d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Keyword: "type", Why: `the root states no type: read as an object ("type": "object")`})
	}
	a := d.attr(m, "", name)
	if a != nil {
		d.noteUnused()
	}
	if a != nil && a.shared != nil {
		// The root refers to a definition: the arguments or the result are
		// that object, stated in place.
		root := *a.shared
		root.typeName, root.goaName, root.canonical = "", "", ""
		if a.description != "" {
			root.description = a.description
		}
		a = &root
	}
	if a != nil && a.kind != kindObject {
		d.fail("", "the schema of a tool's arguments or result is an object here (type \"object\")")
		return nil
	}
	return a
}

// rootObject reports whether a root without "type" states nothing but
// object keywords and annotations: it is read as an object.
func rootObject(m map[string]any) bool {
	for k := range m {
		switch k {
		case "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "description":
		default:
			if !slices.Contains(annotationOnly, k) {
				return false
			}
		}
	}
	return true
}

// fail records a problem at pointer.
func (d *decoder) fail(pointer, reason string) {
	d.problems = append(d.problems, &Problem{Tool: d.tool, Schema: d.schema, Pointer: pointer, Reason: reason})
}

// attr decodes the schema v at pointer; name is the Go type name an object
// there gets. It returns nil after recording a problem.
func (d *decoder) attr(v any, pointer, name string) *attr {
	atProperty := d.atProperty
	d.atProperty = false
	if v == true {
		return &attr{kind: kindAny}
	}
	m, ok := v.(map[string]any)
	if !ok {
		d.fail(pointer, "a schema is a JSON object or true, got "+render(v))
		return nil
	}
	m, nullable, ok := d.alternatives(m, pointer)
	if !ok {
		return nil
	}
	if nullable && d.output && !atProperty {
		d.fail(pointer, "a value that may be null ("+typeText(m)+" or null) in a result, not as a property: the DSL declares no null, and a declared result accepts every value the server sends")
		return nil
	}
	if nullable && d.output {
		d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "null", Why: "a property that may be null (" + typeText(m) + " or null) is declared optional: a result's null member reads as absent"})
	} else if nullable {
		d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "null", Why: "null is one of the server's values: the arguments declare " + typeText(m) + " only, which the server accepts"})
	}
	if _, has := m["$ref"]; has {
		a := d.reference(m, pointer)
		if a != nil && nullable {
			c := *a
			c.nullable = true
			a = &c
		}
		return a
	}
	a := &attr{nullable: nullable}
	used := map[string]bool{}
	take := func(k string) (any, bool) {
		x, ok := m[k]
		if ok {
			used[k] = true
		}
		return x, ok
	}
	if x, ok := take("description"); ok {
		s, isString := x.(string)
		if !isString {
			d.fail(pointer+"/description", "a description is a string, got "+render(x))
			return nil
		}
		if reason := unwritable(s); reason != "" {
			d.fail(pointer+"/description", reason)
			return nil
		}
		a.description = s
	}
	t, hasType := take("type")
	typ, _ := t.(string)
	if list, isList := t.([]any); isList && len(list) == 1 {
		typ, _ = list[0].(string)
	}
	if hasType && typ == "" {
		d.fail(pointer+"/type", "a value of one of several types "+render(t)+": the DSL declares one type per attribute")
		return nil
	}
	ok = true
	switch typ {
	case "":
		a.kind = kindAny
	case "string":
		a.kind = kindString
		if enc, has := take("contentEncoding"); has {
			if enc != "base64" {
				d.fail(pointer+"/contentEncoding", "content encoding "+render(enc)+": the DSL declares base64 (Bytes) only")
				return nil
			}
			a.kind = kindBytes
		}
	case "integer":
		a.kind = kindInt
	case "number":
		a.kind = kindNumber
	case "boolean":
		a.kind = kindBoolean
	case "array":
		a.kind = kindArray
		ok = d.array(m, take, a, pointer, name)
	case "object":
		ok = d.object(m, take, a, pointer, name)
	default:
		d.fail(pointer+"/type", "type "+render(t)+" has no DSL type")
		return nil
	}
	if !ok || !d.validations(take, a, pointer) {
		return nil
	}
	for _, k := range annotationOnly {
		if _, has := take(k); has {
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: k})
		}
	}
	if pn, has := take("propertyNames"); has {
		if pm, isMap := pn.(map[string]any); !isMap || len(pm) != 1 || pm["type"] != "string" {
			d.fail(pointer+"/propertyNames", "propertyNames "+render(pn)+": the DSL declares no rule for the names of properties")
			return nil
		}
		// Every property name is a string: the keyword rejects nothing.
		d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "propertyNames", Why: `"propertyNames": {"type": "string"} rejects nothing: not written`})
	}
	failed := false
	for _, k := range sortedKeys(m) {
		if !used[k] {
			d.fail(pointer+"/"+escape(k), "keyword "+strconv.Quote(k)+" has no DSL counterpart")
			failed = true
		}
	}
	if failed {
		return nil
	}
	return a
}

// array decodes the items of an array.
func (d *decoder) array(m map[string]any, take func(string) (any, bool), a *attr, pointer, name string) bool {
	items, has := take("items")
	if !has {
		a.elem = &attr{kind: kindAny}
	} else {
		if _, tuple := items.([]any); tuple {
			d.fail(pointer+"/items", "items as a list (a tuple): the DSL declares arrays of one element type")
			return false
		}
		if a.elem = d.attr(items, pointer+"/items", gonames.ItemType(name)); a.elem == nil {
			return false
		}
	}
	if u, has := take("uniqueItems"); has && u != false {
		d.fail(pointer+"/uniqueItems", "uniqueItems: the DSL has no word for unique elements")
		return false
	}
	return d.lengths(take, a, pointer, "minItems", "maxItems")
}

// object decodes an object: properties, or a map (additionalProperties as a
// schema and no properties).
func (d *decoder) object(m map[string]any, take func(string) (any, bool), a *attr, pointer, name string) bool {
	a.kind = kindObject
	props, hasProps := take("properties")
	pm, isMap := props.(map[string]any)
	if hasProps && !isMap {
		d.fail(pointer+"/properties", "properties is an object, got "+render(props))
		return false
	}
	extra, hasExtra := take("additionalProperties")
	switch {
	case !hasExtra, extra == false:
		if d.output && extra != false {
			d.fail(pointer, "an object that admits other properties than its own (no \"additionalProperties\": false): the objects the DSL declares admit none, so the declared result would refuse what the server may send")
			return false
		}
	case extra == true:
		if d.output {
			d.fail(pointer+"/additionalProperties", "an object that admits other properties than its own: the objects the DSL declares admit none")
			return false
		}
	default:
		if len(pm) > 0 {
			d.fail(pointer+"/additionalProperties", "an object with properties and a schema for the others: the DSL declares an object or a map")
			return false
		}
		a.kind = kindMap
		if a.elem = d.attr(extra, pointer+"/additionalProperties", gonames.ValueType(name)); a.elem == nil {
			return false
		}
		return d.lengths(take, a, pointer, "minProperties", "maxProperties")
	}
	failed := false
	for _, k := range sortedKeys(pm) {
		if err := gonames.CheckJSONName(k); err != nil {
			d.fail(pointer+"/properties/"+escape(k), err.Error()+": gen refuses it")
			failed = true
			continue
		}
		p := d.property(pm[k], pointer+"/properties/"+escape(k), gonames.MemberType(name, k))
		if p == nil {
			failed = true
			continue
		}
		a.props = append(a.props, prop{name: k, att: p})
	}
	if failed {
		return false
	}
	if req, has := take("required"); has {
		list, isList := req.([]any)
		if !isList {
			d.fail(pointer+"/required", "required is a list of names, got "+render(req))
			return false
		}
		for i, r := range list {
			s, isString := r.(string)
			if !isString || pm[s] == nil && !slices.ContainsFunc(a.props, func(p prop) bool { return p.name == s }) {
				d.fail(fmt.Sprintf("%s/required/%d", pointer, i), "required "+render(r)+" is no property of the object: the DSL requires declared attributes only")
				return false
			}
			if d.output && slices.ContainsFunc(a.props, func(p prop) bool { return p.name == s && p.att.nullable }) {
				continue // null reads as absent: optional
			}
			if !slices.Contains(a.required, s) {
				a.required = append(a.required, s)
			}
		}
	}
	if pointer != "" {
		a.typeName = name
	}
	return true
}

// property decodes the schema of a property; with d.any a problem in it
// declares the property Any.
func (d *decoder) property(v any, pointer, name string) *attr {
	before := len(d.problems)
	notes := len(d.notes)
	d.atProperty = true
	a := d.attr(v, pointer, name)
	d.atProperty = false
	if a != nil || !d.any {
		return a
	}
	d.notes = d.notes[:notes]
	d.declaredAny = append(d.declaredAny, &AnyProperty{
		Tool: d.tool, Schema: d.schema, Pointer: pointer,
		Typed: declaresType(v), Problems: slices.Clone(d.problems[before:]),
	})
	d.problems = d.problems[:before]
	return &attr{kind: kindAny, description: anyDescription(v)}
}

// validations decodes the validation keywords and default of a.
func (d *decoder) validations(take func(string) (any, bool), a *attr, pointer string) bool {
	if e, has := take("enum"); has {
		list, isList := e.([]any)
		if !isList || len(list) == 0 {
			d.fail(pointer+"/enum", "enum is a non-empty list, got "+render(e))
			return false
		}
		for i, v := range list {
			if !d.scalarOf(a, v) {
				d.fail(fmt.Sprintf("%s/enum/%d", pointer, i), "enum value "+render(v)+" is not a value of the attribute's type")
				return false
			}
		}
		a.enum = list
	}
	if f, has := take("format"); has {
		s, isString := f.(string)
		goa, known := formats[s]
		switch {
		case !isString:
			d.fail(pointer+"/format", "format "+render(f)+" is not a name")
			return false
		case known && a.kind == kindString:
			a.format = goa
		default:
			// A format the DSL has no Format for (int32, int64, json,
			// uri-reference): the nearest type, the format a note.
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "format", Why: "format " + render(f) + " has no DSL Format: declared as the nearest type without it"})
		}
	}
	if p, has := take("pattern"); has {
		s, isString := p.(string)
		if !isString || a.kind != kindString {
			d.fail(pointer+"/pattern", "pattern "+render(p)+" on a string only")
			return false
		}
		a.pattern = s
	}
	for _, b := range []struct {
		key string
		dst **json.Number
	}{{"minimum", &a.minimum}, {"maximum", &a.maximum}, {"exclusiveMinimum", &a.exMin}, {"exclusiveMaximum", &a.exMax}} {
		x, has := take(b.key)
		if !has {
			continue
		}
		n, isNumber := x.(json.Number)
		if !isNumber || a.kind != kindInt && a.kind != kindNumber {
			d.fail(pointer+"/"+b.key, b.key+" "+render(x)+": a number bound of a number")
			return false
		}
		if _, err := n.Float64(); err != nil {
			d.fail(pointer+"/"+b.key, b.key+" "+render(x)+" is out of range")
			return false
		}
		*b.dst = &n
	}
	if a.kind == kindString || a.kind == kindBytes {
		if !d.lengths(take, a, pointer, "minLength", "maxLength") {
			return false
		}
	}
	if x, has := take("default"); has {
		if !d.valueOf(a, x) {
			d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "default"})
		} else {
			a.def, a.hasDefault = x, true
		}
	}
	if x, has := take("examples"); has {
		list, isList := x.([]any)
		if !isList {
			d.fail(pointer+"/examples", "examples is a list, got "+render(x))
			return false
		}
		for _, v := range list {
			if !d.valueOf(a, v) {
				d.notes = append(d.notes, Note{Tool: d.tool, Schema: d.schema, Pointer: pointer, Keyword: "examples"})
				return true
			}
		}
		a.examples = list
	}
	return true
}

// lengths decodes a pair of length bounds.
func (d *decoder) lengths(take func(string) (any, bool), a *attr, pointer, minKey, maxKey string) bool {
	for _, b := range []struct {
		key string
		dst **int
	}{{minKey, &a.minLength}, {maxKey, &a.maxLength}} {
		x, has := take(b.key)
		if !has {
			continue
		}
		n, isNumber := x.(json.Number)
		i, err := strconv.Atoi(string(n))
		if !isNumber || err != nil || i < 0 {
			d.fail(pointer+"/"+b.key, b.key+" "+render(x)+" is not a length")
			return false
		}
		if i == 0 && b.key == minKey {
			continue // the default
		}
		*b.dst = &i
	}
	return true
}

// scalarOf reports whether v is a scalar value of a's type.
func (d *decoder) scalarOf(a *attr, v any) bool {
	switch x := v.(type) {
	case string:
		return a.kind == kindString
	case bool:
		return a.kind == kindBoolean
	case json.Number:
		if a.kind == kindInt {
			_, err := strconv.ParseInt(string(x), 10, 64)
			return err == nil
		}
		_, err := x.Float64()
		return a.kind == kindNumber && err == nil
	}
	return false
}

// valueOf reports whether v is a value the design can state for a: a
// scalar of its type, or a list of scalars of an array's element type.
func (d *decoder) valueOf(a *attr, v any) bool {
	if a.kind == kindArray {
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range list {
			if !d.scalarOf(a.elem, x) {
				return false
			}
		}
		return true
	}
	return d.scalarOf(a, v)
}

// withoutKey returns m without k.
func withoutKey(m map[string]any, k string) map[string]any {
	out := make(map[string]any, len(m))
	for key, v := range m {
		if key != k {
			out[key] = v
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// escape escapes a JSON Pointer token.
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// render writes v as compact JSON, for messages.
func render(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}
