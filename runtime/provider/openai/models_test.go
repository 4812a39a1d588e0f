package openai

import (
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestCapabilities(t *testing.T) {
	cases := []struct {
		model string
		want  model.DiscoveryMode
	}{
		{"gpt-5.4", model.DiscoveryNative},
		{"gpt-5.4-mini", model.DiscoveryNative},
		{"gpt-5.4-pro", model.DiscoveryNative},
		{"gpt-5.4-2026-03-05", model.DiscoveryNative},
		{"gpt-5.4-mini-2026-03-05", model.DiscoveryNative},
		{"gpt-5.5", model.DiscoveryNative},
		{"gpt-5.5-nano", model.DiscoveryNative},
		{"gpt-5.10", model.DiscoveryNative},
		{"gpt-6", model.DiscoveryNative},
		{"gpt-6-pro", model.DiscoveryNative},
		{"gpt-5.4-nano", model.DiscoveryEmulated},
		{"gpt-5.4-nano-2026-03-05", model.DiscoveryEmulated},
		{"gpt-5.5-pro", model.DiscoveryEmulated},
		{"gpt-5.3-codex", model.DiscoveryEmulated},
		{"gpt-5", model.DiscoveryEmulated},
		{"gpt-5-mini", model.DiscoveryEmulated},
		{"gpt-4.1", model.DiscoveryEmulated},
		{"gpt-4o", model.DiscoveryEmulated},
		{"o3", model.DiscoveryEmulated},
		{"my-gpt54-deployment", model.DiscoveryEmulated},
		{"gpt-5.4-", model.DiscoveryEmulated},
		{"gpt-5.x", model.DiscoveryEmulated},
		{"GPT-5.4", model.DiscoveryEmulated},
		{"", model.DiscoveryEmulated},
	}
	c := New()
	forced := New(WithEmulation())
	for _, tc := range cases {
		caps := c.Capabilities(tc.model)
		if caps.Discovery != tc.want {
			t.Errorf("Capabilities(%q).Discovery = %v, want %v", tc.model, caps.Discovery, tc.want)
		}
		if !caps.Strict.Supported || !caps.Strict.SubsetOnly {
			t.Errorf("Capabilities(%q).Strict = %+v, want supported within the strict subset", tc.model, caps.Strict)
		}
		if got := forced.Capabilities(tc.model).Discovery; got != model.DiscoveryEmulated {
			t.Errorf("with emulation, Capabilities(%q).Discovery = %v, want emulated", tc.model, got)
		}
	}
}

func FuzzParseModel(f *testing.F) {
	for _, s := range []string{"gpt-5.4", "gpt-5.4-nano-2026-03-05", "gpt-6", "gpt-.4", "gpt-5.", "gpt-99999999999999999999.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		v, variant, ok := parseModel(id)
		if !ok && (v != version{} || variant != "") {
			t.Fatalf("parseModel(%q) = %v, %q, false: want zero values when not recognized", id, v, variant)
		}
		if nativeDiscovery(id) && !ok {
			t.Fatalf("nativeDiscovery(%q) for an unrecognized id", id)
		}
	})
}
