package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzParseFlags checks that every command line parseFlags accepts is a
// configuration run can use.
func FuzzParseFlags(f *testing.F) {
	f.Add("-provider\x00anthropic\x00-model\x00claude-sonnet-4-5")
	f.Add("-replay-provider\x00openai-chat")
	f.Add("-provider\x00openai\x00-q\x00why?\x00-max-tokens\x0010")
	f.Add("-model")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		cfg, err := parseFlags(args, io.Discard)
		if err != nil {
			if !errors.Is(err, errUsage) && !errors.Is(err, flag.ErrHelp) && !strings.Contains(err.Error(), "flag") && !strings.Contains(err.Error(), "invalid value") {
				t.Fatalf("error outside the usage errors: %v", err)
			}
			return
		}
		if cfg.provider != providerReplay && !slices.Contains(liveProviders, cfg.provider) {
			t.Fatalf("accepted provider %q", cfg.provider)
		}
		if _, ok := setups[cfg.replayProvider]; !ok {
			t.Fatalf("accepted replay provider %q", cfg.replayProvider)
		}
		if cfg.maxTokens <= 0 || strings.TrimSpace(cfg.question) == "" {
			t.Fatalf("accepted %+v", cfg)
		}
		if cfg.provider == providerReplay && (cfg.model != "" || cfg.question != defaultQuestion) {
			t.Fatalf("a replay accepted model %q and question %q", cfg.model, cfg.question)
		}
	})
}
