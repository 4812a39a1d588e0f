package registry

import (
	"fmt"
	"net/http"
	"time"
)

// Code classifies a registry error. It travels in error bodies so that a
// Client reports the same Code the service decided.
type Code string

// Error codes.
const (
	// CodeInvalidRequest: the request is malformed or breaks a naming rule.
	CodeInvalidRequest Code = "invalid_request"
	// CodeInvalidSchema: a published tool schema is not acceptable.
	CodeInvalidSchema Code = "invalid_schema"
	// CodeSchemaLimit: a published toolset's schemas are over one of the
	// registry's SchemaLimits; the message names the limit.
	CodeSchemaLimit Code = "schema_limit"
	// CodeInvalidPayload: a call's payload violates the tool's schema.
	CodeInvalidPayload Code = "invalid_payload"
	// CodeFingerprintMismatch: the declared fingerprint is not the
	// registry's fingerprint of the published toolset.
	CodeFingerprintMismatch Code = "fingerprint_mismatch"
	// CodeBodyTooLarge: the request body exceeds the service's limit.
	CodeBodyTooLarge Code = "body_too_large"
	// CodeBodyTimeout: the request body did not arrive whole within the
	// time the service allows a body (its body read timeout).
	CodeBodyTimeout Code = "body_timeout"
	// CodeRecordTooLarge: a toolset or a call result would encode to more
	// than MaxAnswerRecordBytes, more than an answer may carry.
	CodeRecordTooLarge Code = "record_too_large"
	// CodeCatalogChanged: a page cursor belongs to an earlier generation
	// of the registry; read the catalog again from its first page.
	CodeCatalogChanged Code = "catalog_changed"
	// CodeUnsupportedMediaType: the request body is not JSON.
	CodeUnsupportedMediaType Code = "unsupported_media_type"
	// CodeUnauthenticated: the request carries no credential the registry
	// knows.
	CodeUnauthenticated Code = "unauthenticated"
	// CodeForbidden: the caller's credential lacks the scope for the
	// request.
	CodeForbidden Code = "forbidden"
	// CodeEndpointRefused: a provider endpoint breaks the registry's
	// endpoint rules (its allowlist, or its own address), or a forwarded
	// call reached a registry.
	CodeEndpointRefused Code = "endpoint_refused"
	// CodeNotFound: no such route.
	CodeNotFound Code = "not_found"
	// CodeMethodNotAllowed: the route does not accept the method.
	CodeMethodNotAllowed Code = "method_not_allowed"
	// CodeToolsetNotFound: a named toolset is not registered.
	CodeToolsetNotFound Code = "toolset_not_found"
	// CodeToolNotFound: the registration has no such tool.
	CodeToolNotFound Code = "tool_not_found"
	// CodeVersionMismatch: a pinned version is not the current version.
	CodeVersionMismatch Code = "version_mismatch"
	// CodeRegistrationConflict: the fingerprint and revision are already
	// published with another endpoint.
	CodeRegistrationConflict Code = "registration_conflict"
	// CodeTokenMismatch: a withdrawal names a token that is not current.
	CodeTokenMismatch Code = "token_mismatch"
	// CodeCallNotAdmitted: a new call carries a token that is no longer
	// (or never was) the current registration of its toolset.
	CodeCallNotAdmitted Code = "call_not_admitted"
	// CodeAdmissionConflict: a retried call cannot continue: its admission
	// was replaced, or the retry differs from the admitted call.
	CodeAdmissionConflict Code = "admission_conflict"
	// CodeCallOutcomeUnknown: the call was sent to its provider, which may
	// have run it, and no result was recorded: the provider gave no answer,
	// the registry node sending it lost its claim of the call before one
	// came, or the provider answered and the registry's store refused the
	// result (it had no space left). The registry never sends the call
	// again; a retry gets its result if the registry records one later (a
	// held result, once the store has space), and this error otherwise. A
	// new call (a new call ID) runs the tool again.
	CodeCallOutcomeUnknown Code = "call_outcome_unknown"
	// CodeOverloaded: the registry or the provider is at capacity; retry
	// the same call later.
	CodeOverloaded Code = "overloaded"
	// CodeProviderUnavailable: the provider's endpoint failed or answered
	// outside the protocol; retry the same call later.
	CodeProviderUnavailable Code = "provider_unavailable"
	// CodeStorageFull: the registry's store has no space for the change,
	// or the registry started read-only because it had none. Reads keep
	// working, and so do withdrawals unless it started read-only. The
	// change was not made.
	CodeStorageFull Code = "storage_full"
	// CodeInternal: the registry failed, for example to persist a change;
	// the change was not made.
	CodeInternal Code = "internal"
)

// Status returns the HTTP status that carries the code.
func (c Code) Status() int {
	switch c {
	case CodeInvalidRequest, CodeInvalidSchema, CodeInvalidPayload, CodeFingerprintMismatch, CodeEndpointRefused:
		return http.StatusBadRequest
	case CodeBodyTooLarge, CodeRecordTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeBodyTimeout:
		return http.StatusRequestTimeout
	case CodeSchemaLimit:
		return http.StatusUnprocessableEntity
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound, CodeToolsetNotFound, CodeToolNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeCatalogChanged, CodeVersionMismatch, CodeRegistrationConflict, CodeTokenMismatch, CodeCallNotAdmitted, CodeAdmissionConflict, CodeCallOutcomeUnknown:
		return http.StatusConflict
	case CodeOverloaded, CodeLeaseExpired:
		return http.StatusServiceUnavailable
	case CodeProviderUnavailable:
		return http.StatusBadGateway
	case CodeStorageFull:
		return http.StatusInsufficientStorage
	default:
		return http.StatusInternalServerError
	}
}

// Retryable reports whether the same request may succeed later unchanged.
func (c Code) Retryable() bool {
	return c == CodeOverloaded || c == CodeProviderUnavailable
}

// Error is a registry error: a Code to branch on and a message that names
// what was wrong.
type Error struct {
	// Code classifies the error.
	Code Code `json:"code"`
	// Message explains it.
	Message string `json:"message"`
	// RetryAfter, for retryable errors, is how long to wait before retrying;
	// zero when the registry gave no hint. It travels as the Retry-After
	// header.
	RetryAfter time.Duration `json:"-"`
	// Cause is the failure behind the error inside the registry's
	// process, such as the file system error of a store that could not
	// persist a change. It never travels: Message is what a client may
	// read, Cause may name internal paths, addresses and URLs. Error
	// leaves it out; errors.Is and errors.As reach it through Unwrap.
	Cause error `json:"-"`
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Unwrap returns the Cause.
func (e *Error) Unwrap() error { return e.Cause }

// Error returns the code and the message, never the Cause.
func (e *Error) Error() string {
	if e.Message == "" {
		return "registry: " + string(e.Code)
	}
	return "registry: " + string(e.Code) + ": " + e.Message
}

// Is reports whether target is an *Error with the same code and no message
// of its own, such as the Err* sentinels.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Code == e.Code
}

// Internal returns a CodeInternal *Error whose message says only what
// failed (what) and whose Cause is err.
func Internal(what string, err error) *Error {
	return &Error{Code: CodeInternal, Message: what + ": internal failure; nothing was changed", Cause: err}
}

// Sentinels for errors.Is: each matches every *Error with its code.
var (
	ErrInvalidRequest       = &Error{Code: CodeInvalidRequest}
	ErrInvalidSchema        = &Error{Code: CodeInvalidSchema}
	ErrInvalidPayload       = &Error{Code: CodeInvalidPayload}
	ErrSchemaLimit          = &Error{Code: CodeSchemaLimit}
	ErrFingerprintMismatch  = &Error{Code: CodeFingerprintMismatch}
	ErrBodyTooLarge         = &Error{Code: CodeBodyTooLarge}
	ErrEndpointRefused      = &Error{Code: CodeEndpointRefused}
	ErrRecordTooLarge       = &Error{Code: CodeRecordTooLarge}
	ErrCatalogChanged       = &Error{Code: CodeCatalogChanged}
	ErrUnauthenticated      = &Error{Code: CodeUnauthenticated}
	ErrForbidden            = &Error{Code: CodeForbidden}
	ErrToolsetNotFound      = &Error{Code: CodeToolsetNotFound}
	ErrToolNotFound         = &Error{Code: CodeToolNotFound}
	ErrVersionMismatch      = &Error{Code: CodeVersionMismatch}
	ErrRegistrationConflict = &Error{Code: CodeRegistrationConflict}
	ErrTokenMismatch        = &Error{Code: CodeTokenMismatch}
	ErrCallNotAdmitted      = &Error{Code: CodeCallNotAdmitted}
	ErrAdmissionConflict    = &Error{Code: CodeAdmissionConflict}
	ErrCallOutcomeUnknown   = &Error{Code: CodeCallOutcomeUnknown}
	ErrOverloaded           = &Error{Code: CodeOverloaded}
	ErrProviderUnavailable  = &Error{Code: CodeProviderUnavailable}
	ErrStorageFull          = &Error{Code: CodeStorageFull}
	ErrInternal             = &Error{Code: CodeInternal}
)

// ErrorBody is the JSON body of every error response.
type ErrorBody struct {
	// Error is the error.
	Error *Error `json:"error"`
}
