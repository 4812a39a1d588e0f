package tools

// Strict decoding of the wire records. Registry input arrives from other
// processes, so a record is decoded exactly or not at all: every key must be
// one of the record's JSON field names, spelled exactly (encoding/json alone
// matches case-insensitively and drops unknown keys), and no key may appear
// twice: internal/strictjson, the module's one strict decoder, checks it.

import (
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
)

type (
	toolsetFields      ToolsetSchema
	toolFields         ToolSchema
	contractFields     Contract
	fieldMetaFields    FieldMeta
	confirmationFields Confirmation
)

// UnmarshalJSON decodes a toolset record strictly (see package docs).
func (ts *ToolsetSchema) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*toolsetFields)(ts), "toolset")
}

// UnmarshalJSON decodes a tool record strictly.
func (t *ToolSchema) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*toolFields)(t), "tool")
}

// UnmarshalJSON decodes a consumer contract strictly.
func (c *Contract) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*contractFields)(c), "contract")
}

// UnmarshalJSON decodes field metadata strictly.
func (f *FieldMeta) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*fieldMetaFields)(f), "field")
}

// UnmarshalJSON decodes a confirmation strictly.
func (c *Confirmation) UnmarshalJSON(data []byte) error {
	return decodeRecord(data, (*confirmationFields)(c), "confirmation")
}

// decodeRecord decodes the JSON object data into the struct v points to
// through the module's strict decoder.
func decodeRecord(data []byte, v any, what string) error {
	if err := strictjson.Decode(data, v); err != nil {
		if errors.Is(err, strictjson.ErrSyntax) || errors.Is(err, strictjson.ErrDuplicateKey) || errors.Is(err, strictjson.ErrInvalidUTF8) || errors.Is(err, strictjson.ErrTrailingData) {
			return fmt.Errorf("decode %s: %w: %w", what, ErrInvalidJSON, err)
		}
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}
