package devserver

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// fatalLogger is the logger the server is given. The server calls Fatal
// when it cannot go on, a listener it cannot bind among them, and expects
// the call not to return (a zap logger exits the process); the no-op
// logger returns, and the server then runs on with a nil listener and
// panics. fatalLogger logs the message as an error and panics with a
// *fatalError, which Start recovers (recoverFatal) and returns as its
// error.
type fatalLogger struct{ log.Logger }

// Fatal logs msg as an error and panics with a *fatalError.
func (l fatalLogger) Fatal(msg string, tags ...tag.Tag) {
	l.Error(msg, tags...)
	f := &fatalError{msg: msg}
	for _, t := range tags {
		switch t.Key() {
		case "address":
			f.addr, _ = t.Value().(string)
		case "error":
			if zt, ok := t.(tag.ZapTag); ok {
				f.err, _ = zt.Field().Interface.(error)
			}
		}
	}
	panic(f)
}

// fatalError is a Fatal of the server: its message, the address it names
// and the error it carries (a listener's "address already in use").
type fatalError struct {
	msg, addr string
	err       error
}

func (f *fatalError) Error() string {
	var b strings.Builder
	b.WriteString(f.msg)
	if f.addr != "" {
		fmt.Fprintf(&b, " (address %s)", f.addr)
	}
	if f.err != nil {
		fmt.Fprintf(&b, ": %v", f.err)
	}
	return b.String()
}

func (f *fatalError) Unwrap() error { return f.err }

// port is the port of the address the Fatal names, or -1.
func (f *fatalError) port() int {
	_, p, err := net.SplitHostPort(f.addr)
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return -1
	}
	return n
}

// recoverFatal calls fn, returning the *fatalError of a Fatal of the
// server's logger in fn's goroutine as an error; any other panic goes on.
func recoverFatal(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*fatalError)
			if !ok {
				panic(r)
			}
			err = f
		}
	}()
	return fn()
}
