package runtime

// What a model reads of a failed tool call. A model is told that a call
// failed and, when the error is the tool's own, why; it is never told an
// address, URL or file path the error carries (a network or file error from
// inside an executor or a registry client), nor why a child run failed,
// which may name tools outside the parent run's policy. The call's record
// keeps the whole error for the application (CallRecord.Error).

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
)

// childFailure is the error of an agent tool call whose child run failed.
type childFailure struct {
	agent string
	err   error
}

// Error says that the agent failed, without why.
func (e *childFailure) Error() string {
	return fmt.Sprintf("agent %q failed before answering", e.agent)
}

// Unwrap returns the child run's error.
func (e *childFailure) Unwrap() error { return e.err }

// ModelError is an error whose message was written for a model: it names
// no address, URL or file path, whatever the errors it wraps carry. Its
// ModelMessage is what the model reads of a call that failed with it (an
// MCP session's call errors are such errors).
type ModelError interface {
	error
	ModelMessage() string
}

// failureTexts returns what the model reads of a call that failed with err
// and what the call's record keeps.
func failureTexts(err error) (forModel, forRecord string) {
	const prefix = "The tool failed: "
	var (
		child   *childFailure
		urlErr  *url.Error
		opErr   *net.OpError
		dnsErr  *net.DNSError
		addrErr *net.AddrError
		pathErr *fs.PathError
		linkErr *os.LinkError
	)
	var safe ModelError
	switch {
	case errors.As(err, &child):
		return prefix + child.Error(), fmt.Sprintf("%v: %v", child, child.err)
	case errors.As(err, &safe):
		return prefix + safe.ModelMessage(), err.Error()
	case errors.As(err, &urlErr), errors.As(err, &opErr), errors.As(err, &dnsErr), errors.As(err, &addrErr):
		return prefix + "a request to another service failed.", err.Error()
	case errors.As(err, &pathErr), errors.As(err, &linkErr):
		return prefix + "a file operation failed.", err.Error()
	}
	return prefix + err.Error(), err.Error()
}
