package registry

import (
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// MaxLabelLength bounds revisions, call IDs and versions, in bytes.
const MaxLabelLength = 128

// MaxResolve bounds the toolsets one resolution may name.
const MaxResolve = 1000

// Validate checks the request's own shape: the toolset record, the
// fingerprint's form, the revision and the endpoint. Whether the schemas
// compile and the fingerprint matches is for the service to decide.
func (r *PublishRequest) Validate() error {
	if err := r.Toolset.Validate(); err != nil {
		return Errorf(CodeInvalidSchema, "%v", err)
	}
	if !r.Toolset.RegisteredAt.IsZero() {
		return Errorf(CodeInvalidRequest, "toolset %q: registered_at is set by the registry, not by the publisher", r.Toolset.Name)
	}
	if r.Fingerprint != "" && !validFingerprint(r.Fingerprint) {
		return Errorf(CodeInvalidRequest, "toolset %q: fingerprint %q is not %q followed by 64 lower-case hex digits", r.Toolset.Name, truncate(string(r.Fingerprint)), tools.FingerprintPrefix)
	}
	if err := validateLabel("revision", r.Revision); err != nil {
		return Errorf(CodeInvalidRequest, "toolset %q: %v", r.Toolset.Name, err)
	}
	if err := ValidateEndpoint(r.Endpoint); err != nil {
		return Errorf(CodeInvalidRequest, "toolset %q: %v", r.Toolset.Name, err)
	}
	return nil
}

// Validate checks the toolset name and the token's form.
func (r *WithdrawRequest) Validate() error {
	if err := tools.ValidateName(r.Toolset); err != nil {
		return Errorf(CodeInvalidRequest, "toolset: %v", err)
	}
	if err := validateToken(r.Token); err != nil {
		return Errorf(CodeInvalidRequest, "toolset %q: %v", r.Toolset, err)
	}
	return nil
}

// Validate checks that at least one and at most MaxResolve toolsets are
// named, each once, with valid names and versions.
func (r *ResolveRequest) Validate() error {
	if len(r.Toolsets) == 0 {
		return Errorf(CodeInvalidRequest, "no toolsets named; list the registry to read all of it")
	}
	if len(r.Toolsets) > MaxResolve {
		return Errorf(CodeInvalidRequest, "%d toolsets named, at most %d per resolution", len(r.Toolsets), MaxResolve)
	}
	if r.Cursor != "" {
		if err := validateLabel("cursor", r.Cursor); err != nil {
			return Errorf(CodeInvalidRequest, "%v", err)
		}
	}
	seen := make(map[string]bool, len(r.Toolsets))
	for i, ref := range r.Toolsets {
		if err := tools.ValidateName(ref.Name); err != nil {
			return Errorf(CodeInvalidRequest, "toolset %d: %v", i, err)
		}
		if seen[ref.Name] {
			return Errorf(CodeInvalidRequest, "toolset %q named twice", ref.Name)
		}
		seen[ref.Name] = true
		if ref.Version != "" {
			if err := validateLabel("version", ref.Version); err != nil {
				return Errorf(CodeInvalidRequest, "toolset %q: %v", ref.Name, err)
			}
		}
	}
	return nil
}

// Validate checks the call ID, the tool identifier, the token's form and
// that the payload is present. The payload's schema is checked by the
// registry against the admitted registration.
func (r *CallRequest) Validate() error {
	if err := validateLabel("call_id", r.CallID); err != nil {
		return Errorf(CodeInvalidRequest, "%v", err)
	}
	if err := r.Tool.Validate(); err != nil {
		return Errorf(CodeInvalidRequest, "call %q: %v", r.CallID, err)
	}
	if err := validateToken(r.Token); err != nil {
		return Errorf(CodeInvalidRequest, "call %q: %v", r.CallID, err)
	}
	if len(r.Payload) == 0 {
		return Errorf(CodeInvalidRequest, "call %q: payload is missing", r.CallID)
	}
	return nil
}

// ValidateEndpoint reports why s cannot be a provider endpoint: it must be
// an absolute http or https URL with a host, without user information or
// fragment, that NormalizeEndpoint accepts.
func ValidateEndpoint(s string) error {
	_, err := NormalizeEndpoint(s)
	return err
}

func validateToken(t Token) error {
	s := string(t)
	hexPart, ok := strings.CutPrefix(s, TokenPrefix)
	if !ok || !isLowerHex(hexPart, 64) {
		return fmt.Errorf("token %q is not %q followed by 64 lower-case hex digits", truncate(s), TokenPrefix)
	}
	return nil
}

func validFingerprint(fp tools.Fingerprint) bool {
	hexPart, ok := strings.CutPrefix(string(fp), tools.FingerprintPrefix)
	return ok && isLowerHex(hexPart, 64)
}

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// validateLabel accepts 1 to MaxLabelLength visible ASCII characters.
func validateLabel(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s is missing", what)
	}
	if len(s) > MaxLabelLength {
		return fmt.Errorf("%s %q is longer than %d bytes", what, truncate(s), MaxLabelLength)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' {
			return fmt.Errorf("%s %q has byte %q at offset %d, want visible ASCII", what, truncate(s), c, i)
		}
	}
	return nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
