package registry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// DefaultMaxBodyBytes is the default limit on a request body, and on the
// responses a Client or the service's forwarder reads. It is the one source
// of the registry's answer sizes: see MaxAnswerRecordBytes.
const DefaultMaxBodyBytes = 4 << 20

// DecodeRequest reads one JSON object of at most limit bytes from body into
// v, strictly: malformed JSON, a value that is not an object, duplicate
// object keys, unknown fields and data after the object are all refused. An
// oversized body is an *Error with CodeBodyTooLarge, anything else an *Error
// with CodeInvalidRequest; v is then left in an unspecified state. It is
// ReadRequestBody followed by DecodeRequestBody.
func DecodeRequest(body io.Reader, limit int64, v any) error {
	data, err := ReadRequestBody(body, limit)
	if err != nil {
		return err
	}
	return DecodeRequestBody(data, v)
}

// ReadRequestBody reads a request body of at most limit bytes; an
// oversized body is an *Error with CodeBodyTooLarge, one cut by the
// connection's read deadline one with CodeBodyTimeout, another failed read
// one with CodeInvalidRequest.
func ReadRequestBody(body io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, Errorf(CodeBodyTimeout, "request body not received whole within the time the registry allows a body (%d of its bytes read)", len(data))
	}
	if err != nil {
		return nil, Errorf(CodeInvalidRequest, "read request body: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, Errorf(CodeBodyTooLarge, "request body exceeds %d bytes", limit)
	}
	return data, nil
}

// DecodeRequestBody decodes a request body read whole into v, strictly, as
// DecodeRequest does; a refusal is an *Error with CodeInvalidRequest.
func DecodeRequestBody(data []byte, v any) error {
	if err := decodeStrict(data, v); err != nil {
		return Errorf(CodeInvalidRequest, "request body: %v", err)
	}
	return nil
}

// decodeStrict decodes the JSON object data into v; see DecodeRequest.
func decodeStrict(data []byte, v any) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return fmt.Errorf("%w: empty body, want a JSON object", tools.ErrInvalidJSON)
	}
	if trimmed[0] != '{' {
		return fmt.Errorf("%w: want a JSON object, got %q", tools.ErrInvalidJSON, firstToken(trimmed))
	}
	// strictjson refuses what encoding/json would quietly accept:
	// duplicate keys and keys differing from a field's name only in case
	// (the last would win, so a request could name one tool or endpoint to
	// the checks and another to the code that acts on it), and invalid
	// UTF-8.
	return strictjson.Decode(data, v)
}

func firstToken(b []byte) string {
	if len(b) > 16 {
		b = b[:16]
	}
	return string(b)
}
