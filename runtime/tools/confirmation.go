package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"
)

// ParseConfirmation parses a confirmation template with the functions that
// templates may use: "json" (the JSON encoding of a value) besides the
// text/template built-ins such as "index". A missing key referenced with
// `.key` is an error when the template runs; use `index . "key"` for
// optional properties.
func ParseConfirmation(text string) (*template.Template, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("confirmation template is empty")
	}
	t, err := template.New("confirmation").Option("missingkey=error").Funcs(template.FuncMap{
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
	}).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("confirmation template: %w", err)
	}
	return t, nil
}

// Render renders the confirmation for a call's JSON payload. Numbers keep
// their exact decimal text.
func (c *Confirmation) Render(payload []byte) (string, error) {
	t, err := ParseConfirmation(c.Template)
	if err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return "", fmt.Errorf("%w: confirmation payload: %w", ErrInvalidJSON, err)
	}
	if dec.More() {
		return "", fmt.Errorf("%w: confirmation payload: data after the JSON value", ErrInvalidJSON)
	}
	var sb strings.Builder
	if err := t.Execute(&sb, data); err != nil {
		return "", fmt.Errorf("render confirmation: %w", err)
	}
	return sb.String(), nil
}
