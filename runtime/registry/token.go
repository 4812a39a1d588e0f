package registry

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Token identifies one registration of a toolset: one fingerprint published
// under one revision. Calls carry the token their tool was resolved under.
type Token string

// TokenPrefix starts every Token.
const TokenPrefix = "reg1-"

// String returns t as a string.
func (t Token) String() string { return string(t) }

// NewToken derives the registration token of a toolset fingerprint
// published under a deployment-issued revision. The same pair always gives
// the same token and a different pair a different one.
func NewToken(fp tools.Fingerprint, revision string) Token {
	h := sha256.New()
	h.Write([]byte("goa-discovery registration\x00"))
	h.Write([]byte(fp))
	h.Write([]byte{0})
	h.Write([]byte(revision))
	return Token(TokenPrefix + hex.EncodeToString(h.Sum(nil)))
}
