package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
)

// Codec encodes and decodes the JSON values of one tool payload or result,
// validating them against the value's JSON Schema. Generated code uses
// TypedCodec; tools known only by their ToolSchema use RawCodec.
type Codec interface {
	// Schema returns the compiled schema values are checked against.
	Schema() *Schema
	// Decode validates data and decodes it.
	Decode(data []byte) (any, error)
	// Encode encodes v and validates the result.
	Encode(v any) ([]byte, error)
}

// ToolSpec is a tool ready to be called at run time.
type ToolSpec struct {
	// Name is the tool's identifier.
	Name Ident
	// Description tells the model what the tool does.
	Description string
	// Payload is the codec of the tool's arguments; its schema is the
	// payload JSON Schema.
	Payload Codec
	// Result is the codec of the tool's result; nil when the tool returns
	// no structured result.
	Result Codec
	// Contract is the tool's consumer contract; nil when it has none.
	Contract *Contract
}

// RawCodec validates JSON values against a schema and keeps them as raw
// JSON: Decode returns a json.RawMessage holding the input unchanged.
type RawCodec struct {
	schema *Schema
}

// NewRawCodec returns a codec for values of the given schema.
func NewRawCodec(schema *Schema) *RawCodec { return &RawCodec{schema: schema} }

// Schema returns the codec's schema.
func (c *RawCodec) Schema() *Schema { return c.schema }

// Decode validates data and returns a copy of it as a json.RawMessage.
func (c *RawCodec) Decode(data []byte) (any, error) {
	if err := c.schema.Validate(data); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.Clone(data)), nil
}

// Encode accepts a json.RawMessage or []byte holding JSON, or any other
// value that encoding/json can encode, and returns its validated encoding.
func (c *RawCodec) Encode(v any) ([]byte, error) {
	var data []byte
	switch v := v.(type) {
	case json.RawMessage:
		data = bytes.Clone(v)
	case []byte:
		data = bytes.Clone(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode %T: %w", v, err)
		}
		data = b
	}
	if err := c.schema.Validate(data); err != nil {
		return nil, err
	}
	return data, nil
}

// TypedCodec validates JSON values against a schema and decodes them into T.
// Generated toolset packages instantiate it for their argument and result
// types.
type TypedCodec[T any] struct {
	schema   *Schema
	keys     reflect.Type // the type whose exact JSON names data must use
	defaults defaultsHook // how a decoded T takes its defaults
}

// NewTypedCodec returns a codec for values of type T described by schema.
func NewTypedCodec[T any](schema *Schema) *TypedCodec[T] {
	return &TypedCodec[T]{schema: schema, keys: reflect.TypeFor[T](), defaults: defaultsHookOf[T]()}
}

// Schema returns the codec's schema.
func (c *TypedCodec[T]) Schema() *Schema { return c.schema }

// DecodeValue validates data against the schema, then decodes it into a T
// and, when T or *T implements Defaulter, sets the defaults of the optional
// properties data omits. Properties that T has no field for are an error rather than dropped, and
// so are properties that differ from a field's JSON name only in case
// (encoding/json alone would decode "ID" into the field named "id", a value
// the schema never checked).
func (c *TypedCodec[T]) DecodeValue(data []byte) (T, error) {
	var v T
	_, err := c.schema.validate(data)
	if err != nil {
		return v, err
	}
	if err := strictjson.Check(data, c.keys); err != nil {
		return v, fmt.Errorf("%w: decode into %T: %w", ErrPayloadInvalid, v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("%w: decode into %T: %w", ErrPayloadInvalid, v, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, fmt.Errorf("%w: %w: data after the JSON value", ErrPayloadInvalid, ErrInvalidJSON)
	}
	setDefaults(c.defaults, &v)
	return v, nil
}

// EncodeValue encodes v and validates the encoding against the schema, so a
// value that breaks its own contract never leaves the process.
func (c *TypedCodec[T]) EncodeValue(v T) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	if err := c.schema.Validate(data); err != nil {
		return nil, err
	}
	return data, nil
}

// Decode implements Codec; the value is a T.
func (c *TypedCodec[T]) Decode(data []byte) (any, error) { return c.DecodeValue(data) }

// Encode implements Codec; v must be a T or a *T.
func (c *TypedCodec[T]) Encode(v any) ([]byte, error) {
	switch v := v.(type) {
	case T:
		return c.EncodeValue(v)
	case *T:
		if v == nil {
			return nil, fmt.Errorf("encode: nil %T", v)
		}
		return c.EncodeValue(*v)
	default:
		var zero T
		return nil, fmt.Errorf("encode: got %T, want %T", v, zero)
	}
}
