package registry

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestPublishRequestValidate(t *testing.T) {
	valid := func() PublishRequest {
		return PublishRequest{Toolset: recordsToolset(), Revision: "deploy-7", Endpoint: "http://127.0.0.1:9000/tools"}
	}
	cases := []struct {
		name    string
		edit    func(*PublishRequest)
		code    Code
		errPart string
	}{
		{"valid", func(*PublishRequest) {}, "", ""},
		{"valid fingerprint", func(r *PublishRequest) { r.Fingerprint = resolvedRecords(t, "x").Fingerprint }, "", ""},
		{"bad toolset name", func(r *PublishRequest) { r.Toolset.Name = "1records" }, CodeInvalidSchema, `starts with '1'`},
		{"no tools", func(r *PublishRequest) { r.Toolset.Tools = nil }, CodeInvalidSchema, "has no tools"},
		{"payload not an object schema", func(r *PublishRequest) { r.Toolset.Tools[0].Payload = []byte(`"object"`) }, CodeInvalidSchema, "not a JSON object"},
		{"registered_at set", func(r *PublishRequest) { r.Toolset.RegisteredAt = time.Unix(1, 0) }, CodeInvalidRequest, "registered_at is set by the registry"},
		{"fingerprint malformed", func(r *PublishRequest) { r.Fingerprint = "sha256:XYZ" }, CodeInvalidRequest, "64 lower-case hex digits"},
		{"revision missing", func(r *PublishRequest) { r.Revision = "" }, CodeInvalidRequest, "revision is missing"},
		{"revision with space", func(r *PublishRequest) { r.Revision = "a b" }, CodeInvalidRequest, `has byte ' ' at offset 1`},
		{"revision too long", func(r *PublishRequest) { r.Revision = strings.Repeat("a", MaxLabelLength+1) }, CodeInvalidRequest, "longer than 128 bytes"},
		{"endpoint missing", func(r *PublishRequest) { r.Endpoint = "" }, CodeInvalidRequest, "endpoint is missing"},
		{"endpoint relative", func(r *PublishRequest) { r.Endpoint = "/tools" }, CodeInvalidRequest, "scheme must be http or https"},
		{"endpoint without host", func(r *PublishRequest) { r.Endpoint = "http:///tools" }, CodeInvalidRequest, "host is missing"},
		{"endpoint with user", func(r *PublishRequest) { r.Endpoint = "http://u:p@h/" }, CodeInvalidRequest, "user information"},
		{"endpoint with fragment", func(r *PublishRequest) { r.Endpoint = "http://h/#x" }, CodeInvalidRequest, "fragment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := valid()
			tc.edit(&r)
			err := r.Validate()
			checkCode(t, err, tc.code, tc.errPart)
		})
	}
}

func TestCallAndWithdrawValidate(t *testing.T) {
	tok := resolvedRecords(t, "r").Token
	cases := []struct {
		name    string
		v       interface{ Validate() error }
		code    Code
		errPart string
	}{
		{"call", &CallRequest{CallID: "c1", Tool: "records.lookup", Token: tok, Payload: []byte(`{}`)}, "", ""},
		{"call id missing", &CallRequest{Tool: "records.lookup", Token: tok, Payload: []byte(`{}`)}, CodeInvalidRequest, "call_id is missing"},
		{"call tool bad", &CallRequest{CallID: "c1", Tool: "lookup", Token: tok, Payload: []byte(`{}`)}, CodeInvalidRequest, `invalid tool identifier "lookup"`},
		{"call token bad", &CallRequest{CallID: "c1", Tool: "records.lookup", Token: "reg1-xyz", Payload: []byte(`{}`)}, CodeInvalidRequest, `token "reg1-xyz"`},
		{"call payload missing", &CallRequest{CallID: "c1", Tool: "records.lookup", Token: tok}, CodeInvalidRequest, "payload is missing"},
		{"withdraw", &WithdrawRequest{Toolset: "records", Token: tok}, "", ""},
		{"withdraw bad name", &WithdrawRequest{Toolset: "", Token: tok}, CodeInvalidRequest, "name is empty"},
		{"withdraw bad token", &WithdrawRequest{Toolset: "records", Token: Token(tools.FingerprintPrefix)}, CodeInvalidRequest, "token"},
		{"resolve many", &ResolveRequest{Toolsets: make([]ToolsetRef, MaxResolve+1)}, CodeInvalidRequest, "at most 1000"},
		{"resolve bad version", &ResolveRequest{Toolsets: []ToolsetRef{{Name: "a", Version: "1 2"}}}, CodeInvalidRequest, "version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkCode(t, tc.v.Validate(), tc.code, tc.errPart)
		})
	}
}

func checkCode(t *testing.T, err error, code Code, errPart string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, &Error{Code: code}) || !strings.Contains(err.Error(), errPart) {
		t.Fatalf("error = %v, want code %s containing %q", err, code, errPart)
	}
}

func TestNewToken(t *testing.T) {
	a := resolvedRecords(t, "r1")
	cases := []struct {
		name string
		fp   tools.Fingerprint
		rev  string
		same bool
	}{
		{"same pair", a.Fingerprint, "r1", true},
		{"other revision", a.Fingerprint, "r2", false},
		{"other fingerprint", tools.Fingerprint(tools.FingerprintPrefix + strings.Repeat("0", 64)), "r1", false},
		{"boundary moved", a.Fingerprint[:len(a.Fingerprint)-1], string(a.Fingerprint[len(a.Fingerprint)-1]) + "r1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := NewToken(tc.fp, tc.rev)
			if (got == a.Token) != tc.same {
				t.Fatalf("NewToken = %s, base %s, want same=%v", got, a.Token, tc.same)
			}
			if err := validateToken(got); err != nil {
				t.Fatalf("derived token is not well formed: %v", err)
			}
		})
	}
}

func TestErrorCodes(t *testing.T) {
	cases := []struct {
		code      Code
		status    int
		retryable bool
	}{
		{CodeInvalidRequest, 400, false},
		{CodeBodyTooLarge, 413, false},
		{CodeUnsupportedMediaType, 415, false},
		{CodeToolsetNotFound, 404, false},
		{CodeMethodNotAllowed, 405, false},
		{CodeCallNotAdmitted, 409, false},
		{CodeAdmissionConflict, 409, false},
		{CodeCallOutcomeUnknown, 409, false},
		{CodeOverloaded, 503, true},
		{CodeProviderUnavailable, 502, true},
		{CodeStorageFull, 507, false},
		{CodeInternal, 500, false},
	}
	for _, tc := range cases {
		if got := tc.code.Status(); got != tc.status {
			t.Errorf("%s.Status() = %d, want %d", tc.code, got, tc.status)
		}
		if got := tc.code.Retryable(); got != tc.retryable {
			t.Errorf("%s.Retryable() = %v, want %v", tc.code, got, tc.retryable)
		}
	}
	err := Errorf(CodeCallNotAdmitted, "token %s", "x")
	if !errors.Is(err, ErrCallNotAdmitted) || errors.Is(err, ErrAdmissionConflict) {
		t.Fatalf("errors.Is mismatch for %v", err)
	}
	if errors.Is(ErrCallNotAdmitted, err) {
		t.Fatal("a sentinel matches an error with a message")
	}
}
