package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRequest(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		limit   int64
		code    Code
		errPart string
	}{
		{"valid", `{"call_id":"c1","tool":"a.b","token":"t","payload":{"x":1}}`, 1024, "", ""},
		{"empty", ``, 1024, CodeInvalidRequest, "empty body"},
		{"null", `null`, 1024, CodeInvalidRequest, "want a JSON object"},
		{"array", ` [1]`, 1024, CodeInvalidRequest, "want a JSON object"},
		{"malformed", `{"call_id":`, 1024, CodeInvalidRequest, "invalid JSON"},
		{"duplicate key", `{"call_id":"a","call_id":"b"}`, 1024, CodeInvalidRequest, `duplicate object key "call_id"`},
		{"nested duplicate key", `{"payload":{"x":1,"x":2}}`, 1024, CodeInvalidRequest, `duplicate object key "x"`},
		{"unknown field", `{"call_id":"a","tools":[]}`, 1024, CodeInvalidRequest, `unknown field "tools"`},
		{"case-variant tool", `{"call_id":"c1","tool":"a.b","Tool":"x.y","token":"t","payload":{}}`, 1024, CodeInvalidRequest, `unknown field "Tool" at the top level: the field is "tool"`},
		{"case-variant field alone", `{"CALL_ID":"c1"}`, 1024, CodeInvalidRequest, `unknown field "CALL_ID"`},
		{"wrong type", `{"call_id":7}`, 1024, CodeInvalidRequest, "cannot unmarshal number"},
		{"trailing data", `{"call_id":"a"} {}`, 1024, CodeInvalidRequest, "after the top-level value"},
		{"invalid UTF-8", "{\"call_id\":\"\xff\"}", 1024, CodeInvalidRequest, "UTF-8"},
		{"at the limit", `{"call_id":"abc"}`, 17, "", ""},
		{"over the limit", `{"call_id":"abcd"}`, 17, CodeBodyTooLarge, "exceeds 17 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v CallRequest
			err := DecodeRequest(strings.NewReader(tc.body), tc.limit, &v)
			checkCode(t, err, tc.code, tc.errPart)
		})
	}
}

// FuzzDecodeRequest feeds arbitrary bodies to the request decoder of every
// request type: no panic, every error is a registry error with a 4xx code,
// and an accepted request re-encodes to a body that decodes to an equal
// request and validates the same way.
func FuzzDecodeRequest(f *testing.F) {
	publish, _ := json.Marshal(PublishRequest{Toolset: recordsToolset(), Revision: "r1", Endpoint: "http://127.0.0.1:1/x"})
	f.Add(publish)
	f.Add([]byte(`{"toolsets":[{"name":"records","version":"1.0.0"}]}`))
	f.Add([]byte(`{"call_id":"c1","tool":"records.lookup","token":"reg1-00","payload":{"id":"a"}}`))
	f.Add([]byte(`{"toolset":"records","token":"reg1-"}`))
	f.Add([]byte(`{"toolset":{"name":"a","tools":[{"name":"a.b","description":"","payload":{"type":"object"},"contract":{"server_only_fields":["x"]}}]},"revision":"r","endpoint":"http://h"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, newReq := range []func() any{
			func() any { return new(PublishRequest) },
			func() any { return new(ResolveRequest) },
			func() any { return new(CallRequest) },
			func() any { return new(WithdrawRequest) },
		} {
			req := newReq()
			err := DecodeRequest(strings.NewReader(string(body)), DefaultMaxBodyBytes, req)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Code.Status() >= 500 {
					t.Fatalf("decode error %v is not a 4xx registry error", err)
				}
				continue
			}
			verr := req.(interface{ Validate() error }).Validate()
			if verr != nil {
				var e *Error
				if !errors.As(verr, &e) || e.Code.Status() != 400 {
					t.Fatalf("validation error %v is not a 400 registry error", verr)
				}
			}
			again, err := json.Marshal(req)
			if err != nil {
				t.Fatalf("accepted request does not encode: %v", err)
			}
			back := newReq()
			if err := DecodeRequest(strings.NewReader(string(again)), DefaultMaxBodyBytes*2, back); err != nil {
				t.Fatalf("re-encoded request %s does not decode: %v", again, err)
			}
			if verr == nil && back.(interface{ Validate() error }).Validate() != nil {
				t.Fatalf("re-encoded request %s no longer validates", again)
			}
			if verr == nil {
				a, _ := json.Marshal(back)
				if !reflect.DeepEqual(a, again) {
					t.Fatalf("round trip changed the request:\n%s\n%s", again, a)
				}
			}
		}
	})
}

func BenchmarkDecodeRequest(b *testing.B) {
	body := []byte(`{"call_id":"4:run1/call_1","tool":"records.lookup","token":"reg1-0000000000000000000000000000000000000000000000000000000000000000","payload":{"id":"r1","limit":20,"filters":{"status":["open","pending"]}}}`)
	b.ReportAllocs()
	for b.Loop() {
		var req CallRequest
		if err := DecodeRequest(bytes.NewReader(body), DefaultMaxBodyBytes, &req); err != nil {
			b.Fatal(err)
		}
	}
}
