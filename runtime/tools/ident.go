package tools

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNameLength is the longest toolset or tool name, in bytes; it matches
// the design rule for every name a model sees.
const MaxNameLength = 64

// MaxIdentLength is the longest identifier, in bytes: two names and a dot.
const MaxIdentLength = 2*MaxNameLength + 1

// ErrInvalidIdent is matched by every error that rejects a tool identifier.
var ErrInvalidIdent = errors.New("invalid tool identifier")

// Ident identifies a tool as "toolset.tool". Both segments start with an
// ASCII letter or '_', continue with ASCII letters, digits, '_' or '-', and
// are at most MaxNameLength bytes long. The segments never contain a dot, so
// the split is unambiguous.
type Ident string

// NewIdent joins a toolset and a tool name into a validated Ident.
func NewIdent(toolset, tool string) (Ident, error) {
	return ParseIdent(toolset + "." + tool)
}

// ParseIdent validates s and returns it as an Ident.
func ParseIdent(s string) (Ident, error) {
	id := Ident(s)
	if err := id.Validate(); err != nil {
		return "", err
	}
	return id, nil
}

// Validate reports why id is not a well-formed identifier, or nil.
func (id Ident) Validate() error {
	s := string(id)
	if len(s) > MaxIdentLength {
		return fmt.Errorf("%w %q: longer than %d bytes", ErrInvalidIdent, truncate(s), MaxIdentLength)
	}
	toolset, tool, ok := strings.Cut(s, ".")
	if !ok {
		return fmt.Errorf("%w %q: want \"toolset.tool\"", ErrInvalidIdent, s)
	}
	if err := validateSegment(toolset); err != nil {
		return fmt.Errorf("%w %q: toolset %w", ErrInvalidIdent, s, err)
	}
	if err := validateSegment(tool); err != nil {
		return fmt.Errorf("%w %q: tool %w", ErrInvalidIdent, s, err)
	}
	return nil
}

// Toolset returns the part before the dot ("records" in "records.lookup").
func (id Ident) Toolset() string {
	toolset, _, _ := strings.Cut(string(id), ".")
	return toolset
}

// Tool returns the part after the dot ("lookup" in "records.lookup"), or ""
// when id has no dot.
func (id Ident) Tool() string {
	_, tool, _ := strings.Cut(string(id), ".")
	return tool
}

// String returns id as a string.
func (id Ident) String() string { return string(id) }

// ValidateName reports why name cannot be a toolset or tool name (a segment
// of an Ident), or nil.
func ValidateName(name string) error {
	return validateSegment(name)
}

func validateSegment(s string) error {
	if s == "" {
		return errors.New("name is empty")
	}
	if len(s) > MaxNameLength {
		return fmt.Errorf("name %q is longer than %d bytes", truncate(s), MaxNameLength)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && (c == '-' || '0' <= c && c <= '9'):
		case i == 0 && (c == '-' || '0' <= c && c <= '9'):
			return fmt.Errorf("name %q starts with %q, want a letter or '_'", s, c)
		default:
			return fmt.Errorf("name %q has byte %q at offset %d, want letters, digits, '_' or '-'", s, c, i)
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
