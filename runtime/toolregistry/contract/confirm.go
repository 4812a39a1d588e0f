package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Masked replaces the value of every sensitive field in a rendered
// confirmation.
const Masked = "••••"

// Prompt is a rendered confirmation, shown to a person before a call runs.
type Prompt struct {
	// Tool is the tool the call is for.
	Tool tools.Ident
	// Title heads the prompt; empty when the contract gives none.
	Title string
	// Text is the rendered template.
	Text string
}

// Confirm renders the confirmation the tool's contract asks for before a
// call with the given JSON payload, or returns nil when it asks for none.
//
// The template sees the decoded payload under its JSON names: `{{ .key }}`
// for a property (an error when the property is absent), `{{ json .value }}`
// for the JSON encoding of a value, and `{{ index . "key" }}` for optional
// properties; numbers keep their exact decimal text. Rendering is
// tools.Confirmation.Render; Confirm adds that fields the contract marks
// sensitive are replaced by Masked before the template runs.
func Confirm(spec *tools.ToolSpec, payload []byte) (*Prompt, error) {
	if spec == nil || spec.Contract == nil || spec.Contract.Confirmation == nil {
		return nil, nil
	}
	shown, err := maskSensitive(spec.Contract.Fields, payload)
	if err != nil {
		return nil, fmt.Errorf("tool %q: confirmation payload: %w", spec.Name, err)
	}
	text, err := spec.Contract.Confirmation.Render(shown)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", spec.Name, err)
	}
	return &Prompt{Tool: spec.Name, Title: spec.Contract.Confirmation.Title, Text: text}, nil
}

// maskSensitive returns the payload with every sensitive field replaced by
// Masked, or the payload itself when no field is sensitive.
func maskSensitive(fields []tools.FieldMeta, payload []byte) ([]byte, error) {
	if !slices.ContainsFunc(fields, func(f tools.FieldMeta) bool { return f.Sensitive }) {
		return payload, nil
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("%w: %w", tools.ErrInvalidJSON, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON value", tools.ErrInvalidJSON)
	}
	for _, f := range fields {
		if f.Sensitive {
			data = mask(data, f.Path)
		}
	}
	out, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("encode masked payload: %w", err)
	}
	return out, nil
}

// mask replaces the value at the JSON Pointer path with Masked. A path that
// does not reach a value (an optional property left out) masks nothing.
func mask(doc any, path string) any {
	if path == "" {
		return Masked
	}
	tokens := strings.Split(path[1:], "/")
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	cur := doc
	for i, tok := range tokens {
		tok = unescape.Replace(tok)
		last := i == len(tokens)-1
		switch node := cur.(type) {
		case map[string]any:
			next, ok := node[tok]
			if !ok {
				return doc
			}
			if last {
				node[tok] = Masked
				return doc
			}
			cur = next
		case []any:
			idx, err := strconv.Atoi(tok)
			if err != nil || idx < 0 || idx >= len(node) {
				return doc
			}
			if last {
				node[idx] = Masked
				return doc
			}
			cur = node[idx]
		default:
			return doc
		}
	}
	return doc
}
