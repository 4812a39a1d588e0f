package openaiwire

import (
	"encoding/json"
	"errors"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// Provider is the name both adapters report in *model.ProviderError.
const Provider = "openai"

// ProviderError maps an error from the SDK: an API error becomes a
// *model.ProviderError with the status code, the provider's error type (or
// code when it sent no type), its message verbatim and its request id,
// wrapping the SDK error. Other errors (context cancellation, transport)
// are returned unchanged.
func ProviderError(err error) error {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	pe := &model.ProviderError{
		Provider:   Provider,
		StatusCode: apiErr.StatusCode,
		Type:       apiErr.Type,
		Message:    apiErr.Message,
		Err:        err,
	}
	if pe.Type == "" {
		pe.Type = apiErr.Code
	}
	if pe.Message == "" {
		pe.Message = apiErr.Error()
	}
	if apiErr.Response != nil {
		pe.RequestID = apiErr.Response.Header.Get("x-request-id")
	}
	return pe
}

// StreamError maps an error that ended a stream: an error event the SDK
// reports as *ssestream.StreamError becomes a *model.ProviderError with the
// event's error type and message; other errors go through ProviderError.
func StreamError(err error) error {
	var se *ssestream.StreamError
	if !errors.As(err, &se) {
		return ProviderError(err)
	}
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	pe := &model.ProviderError{Provider: Provider, Message: se.Message, Err: err}
	if json.Unmarshal(se.Event.Data, &body) == nil && body.Error.Message != "" {
		pe.Type, pe.Message = body.Error.Type, body.Error.Message
		if pe.Type == "" {
			pe.Type = body.Error.Code
		}
	}
	return pe
}
