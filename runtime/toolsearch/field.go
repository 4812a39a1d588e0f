package toolsearch

import (
	"strconv"
	"strings"
)

// Field is a part of a tool document that search matches query words in.
type Field uint8

// The fields of a tool document, in the order [FieldSet.String] lists them.
const (
	// FieldName is the tool's name and its model-facing name, each but
	// for its namespace.
	FieldName Field = iota
	// FieldTitle is the tool's human-readable title.
	FieldTitle
	// FieldDescription is the tool's description.
	FieldDescription
	// FieldParamName is the names of the tool's parameters, nested ones too.
	FieldParamName
	// FieldParamDescription is the titles, descriptions and enumerated
	// string values of the tool's parameters.
	FieldParamDescription
	// FieldExtra is the extra search terms given for the tool.
	FieldExtra
	// FieldNamespace is the namespace of the tool's name or model-facing
	// name: what comes before the last dot of a dotted name ("euro_history"
	// in "euro_history.treaty_info").
	FieldNamespace

	numFields = iota
)

var fieldNames = [numFields]string{"name", "title", "description", "param_name", "param_description", "extra", "namespace"}

// String returns the field's name as results and the CLI show it.
func (f Field) String() string {
	if int(f) < numFields {
		return fieldNames[f]
	}
	return "field(" + strconv.Itoa(int(f)) + ")"
}

// FieldSet is a set of fields, one bit per [Field].
type FieldSet uint8

// Has reports whether the set contains f.
func (s FieldSet) Has(f Field) bool { return s&(1<<f) != 0 }

// Fields returns the fields of the set in field order.
func (s FieldSet) Fields() []Field {
	var fs []Field
	for f := range Field(numFields) {
		if s.Has(f) {
			fs = append(fs, f)
		}
	}
	return fs
}

// String lists the fields of the set separated by commas, in field order.
func (s FieldSet) String() string {
	var b strings.Builder
	for _, f := range s.Fields() {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.String())
	}
	return b.String()
}
