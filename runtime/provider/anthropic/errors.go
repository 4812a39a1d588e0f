package anthropic

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// providerError maps an SDK error to *model.ProviderError carrying the
// provider's status, error type, message and request id. Errors without an
// API response (a cancelled context, a refused connection) are wrapped
// with the provider's name and keep their cause for errors.Is.
func providerError(err error) error {
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("%s: %w", Provider, err)
	}
	msg := apiErr.Message
	if msg == "" {
		msg = apiErr.RawJSON()
	}
	if msg == "" {
		msg = http.StatusText(apiErr.StatusCode)
	}
	return &model.ProviderError{
		Provider:   Provider,
		StatusCode: apiErr.StatusCode,
		Type:       string(apiErr.Type()),
		Message:    msg,
		RequestID:  apiErr.RequestID,
		Err:        err,
	}
}
