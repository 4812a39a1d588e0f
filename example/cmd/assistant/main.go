// The command line: flags, their checks and exit statuses.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
)

// Provider names accepted by -provider and -replay-provider.
const (
	providerReplay     = "replay"
	providerAnthropic  = "anthropic"
	providerOpenAI     = "openai"
	providerOpenAIChat = "openai-chat"
)

// liveProviders are the providers a run can ask for real, in the order the
// usage lists them.
var liveProviders = []string{providerAnthropic, providerOpenAI, providerOpenAIChat}

// defaultQuestion needs tools the agent does not start with: the customer's
// usage (published in the registry), their tickets (a local toolset) and
// the documentation (an MCP server).
const defaultQuestion = "Customer C-7 says their API usage for November 2026 looks wrong. " +
	"What did they use from 2026-11-01 to 2026-11-30, do they have an open ticket about it, " +
	"and what does the documentation say about how API usage is counted?"

// config is what the command line asks for.
type config struct {
	// provider is replay or a live provider.
	provider string
	// replayProvider chooses the recordings a replay serves.
	replayProvider string
	// model is the model ID; empty takes the provider's default.
	model string
	// question is the user's request.
	question string
	// maxTokens caps each response.
	maxTokens int
	// check runs one discovery round trip per rendering instead of the
	// quickstart.
	check bool
	// export, when set, names the file the run is written to as JSON.
	export string
	// getenv reads the environment (os.Getenv outside tests).
	getenv func(string) string
}

// errUsage marks command-line mistakes; main exits with status 2 on them.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runCommand(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// runCommand parses args, runs the quickstart and returns the exit status.
func runCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "assistant: %v\n", err)
		return 2
	}
	cfg.getenv = getenv
	do := run
	if cfg.check {
		do = runCheck
	}
	if err := do(ctx, cfg, stdout); err != nil {
		fmt.Fprintf(stderr, "assistant: %v\n", err)
		if errors.Is(err, errUsage) || errors.Is(err, errMissingKey) {
			return 2
		}
		return 1
	}
	return 0
}

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	cfg := config{}
	fs := flag.NewFlagSet("assistant", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.provider, "provider", providerReplay,
		"model provider: replay (offline, recorded responses), "+strings.Join(liveProviders, ", "))
	fs.StringVar(&cfg.replayProvider, "replay-provider", providerAnthropic,
		"whose recorded responses a replay serves: "+strings.Join(liveProviders, ", "))
	fs.StringVar(&cfg.model, "model", "", "model ID (default: the provider's default model)")
	fs.StringVar(&cfg.question, "q", defaultQuestion, "the question the agent answers")
	fs.IntVar(&cfg.maxTokens, "max-tokens", 2048, "most output tokens of each response")
	fs.BoolVar(&cfg.check, "check", false, "run one discovery round trip per rendering (native and emulated) and report what the provider answered")
	fs.StringVar(&cfg.export, "export", "", "write the recorded run to this file as JSON (for goa-discovery report)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assistant [-provider replay|anthropic|openai|openai-chat] [-replay-provider P] [-model ID] [-q QUESTION] [-check] [-export FILE]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	replay := cfg.provider == providerReplay
	switch {
	case replay && set["model"]:
		return cfg, fmt.Errorf("%w: -model needs a live -provider; a replay uses the model its recordings were made with", errUsage)
	case replay && set["q"]:
		return cfg, fmt.Errorf("%w: -q needs a live -provider; the recordings answer the default question", errUsage)
	case !replay && set["replay-provider"]:
		return cfg, fmt.Errorf("%w: -replay-provider needs -provider replay", errUsage)
	}
	switch {
	case fs.NArg() > 0:
		return cfg, fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	case cfg.provider != providerReplay && !slices.Contains(liveProviders, cfg.provider):
		return cfg, fmt.Errorf("%w: unknown -provider %q, want replay, %s", errUsage, cfg.provider, strings.Join(liveProviders, ", "))
	case !slices.Contains(liveProviders, cfg.replayProvider):
		return cfg, fmt.Errorf("%w: unknown -replay-provider %q, want %s", errUsage, cfg.replayProvider, strings.Join(liveProviders, ", "))
	case strings.TrimSpace(cfg.question) == "":
		return cfg, fmt.Errorf("%w: -q is empty", errUsage)
	case cfg.maxTokens <= 0:
		return cfg, fmt.Errorf("%w: -max-tokens must be positive, got %d", errUsage, cfg.maxTokens)
	}
	return cfg, nil
}
