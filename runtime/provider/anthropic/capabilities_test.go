package anthropic

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestCapabilities(t *testing.T) {
	strict := model.StrictLimits{Supported: true, MaxTools: maxStrictTools, SubsetOnly: true}
	tests := []struct {
		id     string
		mode   model.DiscoveryMode
		strict model.StrictLimits
	}{
		{"claude-opus-4-5", model.DiscoveryNative, strict},
		{"claude-opus-4-5-20251101", model.DiscoveryNative, strict},
		{"claude-sonnet-4-5-20250929", model.DiscoveryNative, strict},
		{"claude-haiku-4-5", model.DiscoveryNative, strict},
		{"claude-sonnet-4-6", model.DiscoveryNative, strict},
		{"claude-opus-5", model.DiscoveryNative, strict},
		{"claude-mythos-5-2", model.DiscoveryNative, strict},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", model.DiscoveryNative, strict},
		{"claude-sonnet-4-5@20250929", model.DiscoveryNative, strict},
		{"claude-mythos-preview", model.DiscoveryNative, strict},
		{"my-gateway-model", model.DiscoveryNative, strict},
		{"claude-opus-4-1-20250805", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-opus-4-20250514", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-opus-4-0", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-sonnet-4-20250514", model.DiscoveryEmulated, model.StrictLimits{}},
		{"anthropic.claude-sonnet-4-20250514-v1:0", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-3-7-sonnet-latest", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-3-5-haiku-20241022", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-3-opus-20240229", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-2.1", model.DiscoveryEmulated, model.StrictLimits{}},
		{"claude-instant-1.2", model.DiscoveryEmulated, model.StrictLimits{}},
	}
	c := New(WithAPIKey("unused"))
	forced := New(WithAPIKey("unused"), WithEmulation())
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got := c.Capabilities(tt.id)
			if got.Discovery != tt.mode || got.Strict != tt.strict {
				t.Errorf("Capabilities(%q) = %+v, want %v %+v", tt.id, got, tt.mode, tt.strict)
			}
			if f := forced.Capabilities(tt.id); f.Discovery != model.DiscoveryEmulated || f.Strict != tt.strict {
				t.Errorf("with emulation forced, Capabilities(%q) = %+v", tt.id, f)
			}
		})
	}
}
