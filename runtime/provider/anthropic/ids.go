package anthropic

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// The Messages API accepts tool_use ids of letters, digits, '_' and '-',
// and server_tool_use ids of "srvtoolu_" followed by letters, digits and
// '_'. A history started on another provider carries the ids that provider
// gave its calls (an OpenAI-compatible endpoint may answer with
// "functions.lookup:0"), so ids are rewritten where they break these rules:
// the same way on every request, and both in a call and in the result
// answering it. Ids this provider gave go out unchanged.

// hostedIDPrefix starts the ids the provider gives its server tool calls.
const hostedIDPrefix = "srvtoolu_"

// callID is the id a tool_use block, and the tool_result answering it,
// carry for the call id of the conversation.
func callID(id string) string {
	if id != "" && idBytesLegal(id, true) {
		return id
	}
	return rewriteID(id, true)
}

// hostedID is the id of a rebuilt server_tool_use block and of the
// tool_search_tool_result answering it. A call made on another adapter or
// rendering has an id of another shape; the rebuilt pair, which nothing
// else refers to, gets the provider's prefix.
func hostedID(id string) string {
	if rest, ok := strings.CutPrefix(id, hostedIDPrefix); ok && rest != "" && idBytesLegal(rest, false) {
		return id
	}
	if id != "" && idBytesLegal(id, false) {
		return hostedIDPrefix + id
	}
	return hostedIDPrefix + rewriteID(id, false)
}

// idBytesLegal reports whether id has only letters, digits, '_' and, when
// dash is set, '-'.
func idBytesLegal(id string, dash bool) bool {
	for i := 0; i < len(id); i++ {
		if !idByte(id[i], dash) {
			return false
		}
	}
	return true
}

func idByte(c byte, dash bool) bool {
	return c == '_' || (dash && c == '-') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// rewriteID replaces every byte idBytesLegal refuses with '_' and appends
// '_' and eight hex digits of the SHA-256 of id, so that two ids differing
// only in refused bytes ("a.b", "a:b") stay distinct.
func rewriteID(id string, dash bool) string {
	b := make([]byte, 0, len(id)+9)
	for i := 0; i < len(id); i++ {
		if c := id[i]; idByte(c, dash) {
			b = append(b, c)
		} else {
			b = append(b, '_')
		}
	}
	sum := sha256.Sum256([]byte(id))
	return string(append(append(b, '_'), hex.EncodeToString(sum[:4])...))
}
