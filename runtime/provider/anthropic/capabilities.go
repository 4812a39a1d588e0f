package anthropic

import (
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// modelVersion is what a Claude model ID says about its generation.
type modelVersion struct {
	// known is false for IDs that do not follow a Claude naming scheme.
	known        bool
	major, minor int
	// family is the model family ("opus", "sonnet", "haiku", "fable",
	// "mythos"), empty when the ID names none.
	family string
}

// atLeast reports whether v is version major.minor or later.
func (v modelVersion) atLeast(major, minor int) bool {
	return v.major > major || (v.major == major && v.minor >= minor)
}

// parseModelID reads the version of a Claude model ID. It accepts
// the first-party IDs ("claude-sonnet-4-5-20250929", "claude-3-5-haiku-latest")
// and the forms that cloud platforms wrap them in
// ("us.anthropic.claude-opus-4-1-20250805-v1:0", "claude-sonnet-4@20250514").
func parseModelID(id string) modelVersion {
	id = strings.ToLower(id)
	i := strings.Index(id, "claude-")
	if i < 0 {
		return modelVersion{}
	}
	words := strings.FieldsFunc(id[i+len("claude-"):], func(r rune) bool {
		return r == '-' || r == '@' || r == ':' || r == '.'
	})
	if len(words) == 0 {
		return modelVersion{}
	}
	if words[0] == "instant" {
		return modelVersion{known: true, major: 1}
	}
	if n, ok := versionNumber(words[0]); ok {
		// Version first: claude-3-5-sonnet, claude-3-opus, claude-2.1.
		v := modelVersion{known: true, major: n}
		rest := words[1:]
		if len(rest) > 0 {
			if m, ok := versionNumber(rest[0]); ok {
				v.minor = m
				rest = rest[1:]
			}
		}
		if len(rest) > 0 {
			v.family = rest[0]
		}
		return v
	}
	// Family first: claude-opus-4-1-20250805, claude-sonnet-4-5.
	if len(words) < 2 {
		return modelVersion{}
	}
	n, ok := versionNumber(words[1])
	if !ok {
		return modelVersion{}
	}
	v := modelVersion{known: true, major: n, family: words[0]}
	if len(words) > 2 {
		if m, ok := versionNumber(words[2]); ok {
			v.minor = m
		}
	}
	return v
}

// versionNumber parses a one- or two-digit version number; longer numbers
// are dates ("20250514"), not versions.
func versionNumber(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// nativeDiscovery reports whether the model supports deferred loading and
// tool search: Claude 4.5 models and later, and any ID this package does
// not recognize (new models are assumed to keep the feature).
func nativeDiscovery(v modelVersion) bool {
	return !v.known || v.atLeast(4, 5)
}

// strictLimits reports strict tool support: generally available on the
// 4.5 models and later (and assumed for unrecognized IDs), at most 20
// strict tools a request, within a subset of JSON Schema.
func strictLimits(v modelVersion) model.StrictLimits {
	if v.known && !v.atLeast(4, 5) {
		return model.StrictLimits{}
	}
	return model.StrictLimits{Supported: true, MaxTools: maxStrictTools, SubsetOnly: true}
}

// toolChanges reports whether the model accepts mid-conversation tool
// changes (tool_addition and tool_removal blocks in system-role messages,
// beta mid-conversation-tool-changes-2026-07-01): Claude Opus 4.8, Opus 5,
// Fable 5 and Mythos 5 and later versions of those families, and any ID
// this package does not recognize; not Sonnet or Haiku, nor earlier models
// (https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages).
func toolChanges(v modelVersion) bool {
	if !v.known {
		return true
	}
	switch v.family {
	case "opus":
		return v.atLeast(4, 8)
	case "fable", "mythos":
		return v.atLeast(5, 0)
	}
	return false
}

// Capabilities reports how the client renders discovery for modelID and
// the model's strict-schema limits. Discovery is native for Claude 4.5
// models, later ones and unrecognized IDs unless WithEmulation is set, and
// emulated otherwise.
func (c *Client) Capabilities(modelID string) model.Capabilities {
	v := parseModelID(modelID)
	mode := model.DiscoveryEmulated
	if nativeDiscovery(v) && !c.emulate {
		mode = model.DiscoveryNative
	}
	return model.Capabilities{Discovery: mode, Strict: strictLimits(v)}
}
