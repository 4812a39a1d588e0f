package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// MaxNameLength is the longest portable name, in bytes.
const MaxNameLength = 128

// ErrInvalidName is matched by every error of ValidateName.
var ErrInvalidName = errors.New("discovery: name is not portable")

// ValidateName reports why name is not portable, or nil. A portable name is
// accepted by every supported provider: ASCII letters, digits, '_' and '-',
// starting with a letter or '_', at most MaxNameLength bytes.
func ValidateName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: empty name", ErrInvalidName)
	}
	if len(name) > MaxNameLength {
		return fmt.Errorf("%w: %q has %d bytes, at most %d allowed", ErrInvalidName, truncateName(name), len(name), MaxNameLength)
	}
	if !isNameStart(name[0]) {
		return fmt.Errorf("%w: %q starts with %q, want a letter or '_'", ErrInvalidName, name, name[0])
	}
	for i := 1; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return fmt.Errorf("%w: %q has %q at byte %d, want letters, digits, '_' or '-'", ErrInvalidName, name, name[i], i)
		}
	}
	return nil
}

// IsPortable reports whether ValidateName accepts name.
func IsPortable(name string) bool {
	if name == "" || len(name) > MaxNameLength || !isNameStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

// PortableName maps name to a portable name. A portable name maps to
// itself. Otherwise every byte sequence that may not appear in a portable
// name (a '.', a space, any non-ASCII character) becomes one '_', a name
// that would start with a digit or '-' (or is empty) gets a leading '_', and a name
// longer than MaxNameLength keeps its first bytes followed by '_' and eight
// hex digits of the SHA-256 of the original name. The MCP name
// "github.create_issue" becomes "github_create_issue".
//
// Distinct names can map to one portable name ("a.b" and "a_b"); NewNameMap
// detects it.
func PortableName(name string) string {
	return PortableNameWithin(name, MaxNameLength)
}

// PortableNameWithin is PortableName for a name that must fit max bytes
// (at least 16), such as a tool name that is one segment of an identifier:
// a portable name longer than max is shortened the way PortableName
// shortens past MaxNameLength. A max outside 16..MaxNameLength is taken as
// MaxNameLength.
func PortableNameWithin(name string, max int) string {
	if max < 16 || max > MaxNameLength {
		max = MaxNameLength
	}
	if len(name) <= max && IsPortable(name) {
		return name
	}
	var sb strings.Builder
	sb.Grow(len(name) + 1)
	// A leading non-ASCII character becomes '_', a valid start; a leading
	// digit or '-' needs one before it.
	if name == "" || (name[0] < 0x80 && !isNameStart(name[0])) {
		sb.WriteByte('_')
	}
	for _, r := range name {
		if r < 0x80 && isNameByte(byte(r)) {
			sb.WriteRune(r)
		} else {
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if len(s) > max {
		sum := sha256.Sum256([]byte(name))
		suffix := "_" + hex.EncodeToString(sum[:4])
		s = s[:max-len(suffix)] + suffix
	}
	return s
}

func isNameStart(b byte) bool {
	return b == '_' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

func isNameByte(b byte) bool {
	return isNameStart(b) || b == '-' || ('0' <= b && b <= '9')
}

// truncateName shortens a long name for an error message.
func truncateName(name string) string {
	const keep = 40
	if len(name) <= keep {
		return name
	}
	return name[:keep] + "..."
}
