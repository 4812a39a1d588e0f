package expr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxNameLength is the longest name a model may see (tool, toolset, agent and
// registry names).
const MaxNameLength = 64

// ErrInvalidName is wrapped by the errors of CheckName.
var ErrInvalidName = errors.New("invalid name")

// CheckName checks a name that a model will see: 1 to 64 characters of ASCII
// letters, digits, '_' and '-', starting with a letter or '_'. The error says
// what is wrong and wraps ErrInvalidName.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: the name is empty", ErrInvalidName)
	case len(name) > MaxNameLength:
		return fmt.Errorf("%w: %q is %d bytes long, the limit is %d", ErrInvalidName, name, len(name), MaxNameLength)
	case !isLetter(name[0]) && name[0] != '_':
		return fmt.Errorf("%w: %q must start with a letter or '_'", ErrInvalidName, name)
	}
	for i, r := range name {
		if r == utf8.RuneError && !strings.HasPrefix(name[i:], string(utf8.RuneError)) {
			return fmt.Errorf("%w: %q is not valid UTF-8 at byte %d", ErrInvalidName, name, i)
		}
		if r >= utf8.RuneSelf || !isLetter(byte(r)) && !isDigit(byte(r)) && r != '_' && r != '-' {
			return fmt.Errorf("%w: %q contains %q at byte %d; use ASCII letters, digits, '_' and '-'", ErrInvalidName, name, r, i)
		}
	}
	return nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ErrInvalidVersion is wrapped by the errors of CheckVersion.
var ErrInvalidVersion = errors.New("invalid semantic version")

// CheckVersion checks that v is a semantic version as defined by
// https://semver.org (2.0.0): MAJOR.MINOR.PATCH without leading zeros,
// optionally followed by -PRERELEASE and +BUILD. No "v" prefix is accepted.
// The error says what is wrong and wraps ErrInvalidVersion.
func CheckVersion(v string) error {
	core, build, hasBuild := strings.Cut(v, "+")
	core, pre, hasPre := strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return fmt.Errorf("%w: %q must have the form MAJOR.MINOR.PATCH (for example \"1.2.3\")", ErrInvalidVersion, v)
	}
	for i, part := range parts {
		what := [...]string{"major", "minor", "patch"}[i]
		if err := checkNumeric(part); err != nil {
			return fmt.Errorf("%w: %q: %s version %v", ErrInvalidVersion, v, what, err)
		}
	}
	if hasPre {
		if err := checkIdentifiers(pre, true); err != nil {
			return fmt.Errorf("%w: %q: pre-release %v", ErrInvalidVersion, v, err)
		}
	}
	if hasBuild {
		if err := checkIdentifiers(build, false); err != nil {
			return fmt.Errorf("%w: %q: build metadata %v", ErrInvalidVersion, v, err)
		}
	}
	return nil
}

// checkNumeric checks a numeric identifier: digits without a leading zero.
func checkNumeric(s string) error {
	if s == "" {
		return errors.New("is empty")
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return fmt.Errorf("%q is not a number", s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return fmt.Errorf("%q has a leading zero", s)
	}
	return nil
}

// checkIdentifiers checks dot-separated pre-release or build identifiers.
// Numeric pre-release identifiers must not have leading zeros.
func checkIdentifiers(s string, prerelease bool) error {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return fmt.Errorf("has an empty identifier in %q", s)
		}
		numeric := true
		for _, r := range id {
			if r >= utf8.RuneSelf || !isLetter(byte(r)) && !isDigit(byte(r)) && r != '-' {
				return fmt.Errorf("identifier %q contains %q; use ASCII letters, digits and '-'", id, r)
			}
			numeric = numeric && isDigit(byte(r))
		}
		if prerelease && numeric && len(id) > 1 && id[0] == '0' {
			return fmt.Errorf("identifier %q has a leading zero", id)
		}
	}
	return nil
}
