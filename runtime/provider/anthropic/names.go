package anthropic

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// maxNameLen is the longest tool name the Messages API accepts.
const maxNameLen = 64

// ErrNameCollision is matched by errors reporting two declared tools whose
// names map to the same provider name.
var ErrNameCollision = errors.New("anthropic: tool names collide")

// legalName reports whether name matches ^[a-zA-Z0-9_-]{1,64}$, the tool
// names the Messages API accepts.
func legalName(name string) bool {
	if name == "" || len(name) > maxNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !legalByte(name[i]) {
			return false
		}
	}
	return true
}

func legalByte(b byte) bool {
	return b == '_' || b == '-' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || ('0' <= b && b <= '9')
}

// providerName maps a tool name to one the API accepts. A legal name maps to
// itself. Otherwise every illegal byte becomes '_'; a name that is then
// longer than 64 bytes keeps its first 55 bytes and gains "_" and 8 hex
// digits of the SHA-256 of the original name, so long names stay distinct.
func providerName(name string) string {
	if legalName(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if legalByte(name[i]) {
			b.WriteByte(name[i])
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if len(s) > maxNameLen || s == "" {
		sum := sha256.Sum256([]byte(name))
		s = s[:min(len(s), maxNameLen-9)] + "_" + hex.EncodeToString(sum[:4])
	}
	return s
}

// nameMap maps the declared tools' names to provider names and back.
type nameMap struct {
	toProvider map[string]string
	toNeutral  map[string]string
}

func newNameMap() *nameMap {
	return &nameMap{toProvider: make(map[string]string), toNeutral: make(map[string]string)}
}

// add declares name, failing when another declared name maps to the same
// provider name. Declaring a name twice is not an error here: the same tool
// may appear both as discovered and in the deferred catalog.
func (m *nameMap) add(name string) error {
	if _, ok := m.toProvider[name]; ok {
		return nil
	}
	p := providerName(name)
	if other, ok := m.toNeutral[p]; ok {
		return fmt.Errorf("%w: %q and %q both map to %q", ErrNameCollision, other, name, p)
	}
	m.toProvider[name] = p
	m.toNeutral[p] = name
	return nil
}

// provider returns the provider name of a tool name, declared or not (a
// history may name tools no longer declared).
func (m *nameMap) provider(name string) string {
	if p, ok := m.toProvider[name]; ok {
		return p
	}
	return providerName(name)
}

// neutral returns the declared tool name behind a provider name. A name
// that no declared tool maps to comes back as it is, so the runtime answers
// the call as one of an unknown tool.
func (m *nameMap) neutral(p string) string {
	if n, ok := m.toNeutral[p]; ok {
		return n
	}
	return p
}
