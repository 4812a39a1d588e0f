package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Fingerprint is "sha256:" followed by the lower-case hex SHA-256 digest of a
// canonical JSON document (see Canonicalize).
type Fingerprint string

// FingerprintPrefix starts every Fingerprint.
const FingerprintPrefix = "sha256:"

// String returns f as a string.
func (f Fingerprint) String() string { return string(f) }

// schemaDoc is the document SchemaFingerprint hashes.
type schemaDoc struct {
	Name  string       `json:"name"`
	Tools []ToolSchema `json:"tools"`
}

// toolsetDoc is the document ToolsetFingerprint hashes: every field of a
// ToolsetSchema but its registration time.
type toolsetDoc struct {
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	Tags        []string     `json:"tags,omitempty"`
	Version     string       `json:"version,omitempty"`
	Tools       []ToolSchema `json:"tools"`
}

// SchemaFingerprint fingerprints a registration: its name and its tool
// schemas, whatever order they are given in. Toolset-level annotations
// (title, description, tags, version) and timestamps are not covered. Two
// schemas with one name are an error.
func SchemaFingerprint(name string, schemas []ToolSchema) (Fingerprint, error) {
	sorted, err := sortedTools(schemas)
	if err != nil {
		return "", fmt.Errorf("fingerprint of %q: %w", name, err)
	}
	return fingerprintOf(schemaDoc{Name: name, Tools: sorted})
}

// ToolsetFingerprint fingerprints a whole toolset record: name, title,
// description, tags, version and tool schemas (in any order). The
// registration time is not covered.
func ToolsetFingerprint(ts *ToolsetSchema) (Fingerprint, error) {
	sorted, err := sortedTools(ts.Tools)
	if err != nil {
		return "", fmt.Errorf("fingerprint of toolset %q: %w", ts.Name, err)
	}
	return fingerprintOf(toolsetDoc{
		Name:        ts.Name,
		Title:       ts.Title,
		Description: ts.Description,
		Tags:        ts.Tags,
		Version:     ts.Version,
		Tools:       sorted,
	})
}

// sortedTools returns a sorted copy of schemas, never nil, so that no tools
// fingerprint alike whether given as nil or as an empty list.
func sortedTools(schemas []ToolSchema) ([]ToolSchema, error) {
	sorted := append(make([]ToolSchema, 0, len(schemas)), schemas...)
	slices.SortFunc(sorted, func(a, b ToolSchema) int { return strings.Compare(string(a.Name), string(b.Name)) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Name == sorted[i-1].Name {
			return nil, fmt.Errorf("%w: tool %q listed twice", ErrInvalidSchema, sorted[i].Name)
		}
	}
	return sorted, nil
}

func fingerprintOf(doc any) (Fingerprint, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("encode fingerprint document: %w", err)
	}
	canon, err := Canonicalize(raw)
	if err != nil {
		return "", fmt.Errorf("canonicalize fingerprint document: %w", err)
	}
	sum := sha256.Sum256(canon)
	return Fingerprint(FingerprintPrefix + hex.EncodeToString(sum[:])), nil
}
