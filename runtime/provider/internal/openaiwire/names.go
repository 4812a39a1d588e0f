package openaiwire

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// MaxNameLength is the longest function (and namespace) name OpenAI accepts.
const MaxNameLength = 64

// RuleNameCollision: two tools of one request map to one provider name.
const RuleNameCollision model.Rule = "provider_name_collision"

// hashLength is the number of hex digits that end a shortened name.
const hashLength = 8

// LegalName returns the provider-legal form of name, built on
// discovery.PortableName: a portable name of at most MaxNameLength bytes is
// itself; a longer one keeps its first bytes and ends with '_' and
// hashLength hex digits of the SHA-256 of the original name, so two long
// names stay distinct.
func LegalName(name string) string {
	p := discovery.PortableName(name)
	if len(p) <= MaxNameLength {
		return p
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:])[:hashLength]
	return p[:MaxNameLength-len(suffix)] + suffix
}

// NameMap maps the conversation's tool names to provider-legal names within
// one scope (the top level of a request, or one namespace) and back. The
// zero value is not usable; call NewNameMap.
type NameMap struct {
	scope      string
	toProvider map[string]string
	toNeutral  map[string]string
}

// NewNameMap returns an empty map; scope names it in collision errors
// ("request", "namespace \"records\"").
func NewNameMap(scope string) *NameMap {
	return &NameMap{scope: scope, toProvider: map[string]string{}, toNeutral: map[string]string{}}
}

// Add records neutral under the provider name wire (normally
// LegalName(neutral)) and returns wire. Adding the same pair again is a
// no-op; two neutral names on one wire name, or one neutral name on two wire
// names, is a *model.ValidationError with RuleNameCollision.
func (m *NameMap) Add(neutral, wire string) (string, error) {
	if prev, ok := m.toNeutral[wire]; ok && prev != neutral {
		return "", &model.ValidationError{Message: -1, Part: -1, Rule: RuleNameCollision,
			Detail: fmt.Sprintf("%s: tools %q and %q both map to provider name %q", m.scope, prev, neutral, wire)}
	}
	if prev, ok := m.toProvider[neutral]; ok && prev != wire {
		return "", &model.ValidationError{Message: -1, Part: -1, Rule: RuleNameCollision,
			Detail: fmt.Sprintf("%s: tool %q maps to both %q and %q", m.scope, neutral, prev, wire)}
	}
	m.toProvider[neutral] = wire
	m.toNeutral[wire] = neutral
	return wire, nil
}

// Provider returns the provider name recorded for neutral.
func (m *NameMap) Provider(neutral string) (string, bool) {
	w, ok := m.toProvider[neutral]
	return w, ok
}

// Neutral returns the conversation's name recorded for the provider name.
func (m *NameMap) Neutral(wire string) (string, bool) {
	n, ok := m.toNeutral[wire]
	return n, ok
}

// Len returns the number of recorded names.
func (m *NameMap) Len() int { return len(m.toNeutral) }
