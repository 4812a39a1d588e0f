package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// noEnv is an environment with nothing set.
func noEnv(string) string { return "" }

// requestSizes returns the sizes the trace printed, in order.
func requestSizes(t *testing.T, out string) []int {
	t.Helper()
	var sizes []int
	for _, m := range regexp.MustCompile(`(?m)^  request (\d+): (\d+) bytes sent$`).FindAllStringSubmatch(out, -1) {
		if m[1] != strconv.Itoa(len(sizes)+1) {
			t.Fatalf("request %s printed as number %d", m[1], len(sizes)+1)
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// declaredAt returns what the trace says step declares.
func declaredAt(out string, step int) string {
	_, rest, _ := strings.Cut(out, "step "+strconv.Itoa(step)+": declares ")
	line, _, _ := strings.Cut(rest, "\n")
	return line
}

func TestReplayDiscoversAndCallsTools(t *testing.T) {
	cases := []struct {
		provider string
		args     []string
		mode     string
	}{
		{providerAnthropic, nil, "discovery on anthropic claude-sonnet-4-5: native"},
		{providerOpenAI, []string{"-replay-provider", "openai"}, "discovery on openai gpt-5.4: native"},
		{providerOpenAIChat, []string{"-provider", "replay", "-replay-provider", "openai-chat"}, "discovery on openai-chat gpt-4.1: emulated"},
	}
	for _, tc := range cases {
		t.Run(tc.provider, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runCommand(context.Background(), tc.args, noEnv, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", code, stderr.String(), stdout.String())
			}
			out := stdout.String()
			for _, want := range []string{
				"replaying recorded " + tc.provider + " responses",
				"offline, no API key used",
				"published toolset customers@1.4.0: 2 tools, token reg1-",
				`MCP server "docs" serving at http://127.0.0.1:`,
				"  toolset docs registered from its tools/list: 2 tools, schemas checked against the design",
				"agent analyst starts with 0 immediate tools, 7 deferred tools (tickets, docs) and registry company (deferred)",
				tc.mode,
				"step 1: declares tool_search",
				`  search: query "customer usage per product, search open tickets"`,
				`  search: query "read documentation pages"`,
				"  found: customers_customer_usage, customers_get_customer, tickets_search_tickets,",
				"  found: docs_read_doc, docs_search_docs\n",
				`  call: customers_customer_usage {"id":"C-7","from":"2026-11-01","to":"2026-11-30"}`,
				`  call: docs_search_docs {"query":"API usage"}`,
				`  result of customers_customer_usage: {"api_calls":1284000,"exports":312,"seats_active":37}`,
				`  result of tickets_search_tickets: [{"id":"T-1042",`,
				`  result of docs_search_docs: {"pages":["/billing/api-usage"]}`,
				`  call: docs_read_doc {"path":"/billing/api-usage"}`,
				"  result of docs_read_doc: # How API usage is counted Every request to the API counts as one API call,",
				"\nanswer: ",
				"1,284,000 API calls",
				"including requests that fail with a 4xx status",
				"call customers.customer_usage ran registry company, toolset customers@1.4.0, token reg1-",
				"call tickets.search_tickets ran local toolset tickets",
				"call docs.search_docs ran mcp server docs, toolset docs",
				"call docs.read_doc ran mcp server docs, toolset docs",
				"4 steps, 4 tool calls, stop completed",
				"tokens as recorded: ",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			// docs_read_doc is declared only once the second search found it.
			if d := declaredAt(out, 1); strings.Contains(d, "docs_") {
				t.Errorf("step 1 declares %s, want no docs tool before the search", d)
			}
			if d := declaredAt(out, 2); !strings.Contains(d, "docs_read_doc") {
				t.Errorf("step 2 declares %s, want the docs_read_doc the search found", d)
			}
			sizes := requestSizes(t, out)
			if len(sizes) != 4 {
				t.Fatalf("%d request sizes printed, want 4:\n%s", len(sizes), out)
			}
			// The history only grows, and so does every request after the first.
			for i, n := range sizes {
				if n <= 0 || i > 0 && n <= sizes[i-1] {
					t.Errorf("request sizes %v, want growing sizes", sizes)
					break
				}
			}
			if t.Failed() {
				t.Logf("output:\n%s", out)
			}
		})
	}
}

func TestMissingKey(t *testing.T) {
	cases := []struct {
		provider, keyVar string
	}{
		{providerAnthropic, "ANTHROPIC_API_KEY"},
		{providerOpenAI, "OPENAI_API_KEY"},
		{providerOpenAIChat, "OPENAI_API_KEY"},
	}
	for _, tc := range cases {
		t.Run(tc.provider, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runCommand(context.Background(), []string{"-provider", tc.provider, "-model", "some-model"}, noEnv, &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			want := "assistant: missing API key: -provider " + tc.provider + " reads its key from " + tc.keyVar + ", which is not set; " +
				"export " + tc.keyVar + "=... or run without -provider to replay recorded responses offline\n"
			if stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			if stdout.Len() != 0 {
				t.Errorf("started anyway: %s", stdout.String())
			}
		})
	}
}

func TestFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown provider", []string{"-provider", "gemini"}, `unknown -provider "gemini"`},
		{"unknown replay provider", []string{"-replay-provider", "gemini"}, `unknown -replay-provider "gemini"`},
		{"model on replay", []string{"-model", "gpt-5.4"}, "-model needs a live -provider"},
		{"question on replay", []string{"-q", "hello"}, "-q needs a live -provider"},
		{"replay provider on live", []string{"-provider", "openai", "-replay-provider", "openai"}, "-replay-provider needs -provider replay"},
		{"arguments", []string{"now"}, `unexpected arguments ["now"]`},
		{"empty question", []string{"-provider", "openai", "-q", " "}, "-q is empty"},
		{"max tokens", []string{"-max-tokens", "0"}, "-max-tokens must be positive, got 0"},
		{"undefined flag", []string{"-verbose"}, "flag provided but not defined: -verbose"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runCommand(context.Background(), tc.args, noEnv, &stdout, &stderr); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("started anyway: %s", stdout.String())
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := runCommand(context.Background(), []string{"-h"}, noEnv, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "usage: assistant") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr.String())
	}
}

// TestLiveRequestSizes runs the live path against a loopback stand-in of
// the Anthropic API (ANTHROPIC_BASE_URL, which the SDK reads): the sizes the
// trace prints, measured on the client side, are those the server received.
func TestLiveRequestSizes(t *testing.T) {
	served := &requestLog{}
	srv := serveRecordings(t, providerAnthropic, served)
	env := func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "test-key"
		}
		return ""
	}
	var stdout, stderr bytes.Buffer
	if code := runCommand(context.Background(), []string{"-provider", "anthropic"}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if err := srv.check(); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	if !strings.HasPrefix(out, "asking anthropic model claude-sonnet-4-5\n") || strings.Contains(out, "replaying") || !strings.Contains(out, "; tokens: ") {
		t.Errorf("live run announced as:\n%s", out)
	}
	got, want := requestSizes(t, out), served.all()
	if len(want) != 4 || !slices.Equal(got, want) {
		t.Errorf("trace printed sizes %v, server received %v", got, want)
	}
}

func TestReplayServerRefusesWhatIsNotRecorded(t *testing.T) {
	post := func(t *testing.T, url string) int {
		t.Helper()
		resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	cases := []struct {
		name   string
		paths  []string
		status []int
		want   string
	}{
		{"wrong endpoint", []string{"/v1/complete"}, []int{http.StatusNotFound}, "POST /v1/complete is not the recorded endpoint POST /v1/messages"},
		{"unused recordings", []string{"/v1/messages"}, []int{http.StatusOK}, "1 of 4 recorded responses used"},
		{"past the recordings", []string{"/v1/messages", "/v1/messages", "/v1/messages", "/v1/messages", "/v1/messages"},
			[]int{http.StatusOK, http.StatusOK, http.StatusOK, http.StatusOK, http.StatusInternalServerError}, "request 5 has no recording (4 recorded)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := startReplay(providerAnthropic, &requestLog{})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = srv.close() }()
			for i, p := range tc.paths {
				if got := post(t, srv.url+p); got != tc.status[i] {
					t.Errorf("request %d: status %d, want %d", i+1, got, tc.status[i])
				}
			}
			err = srv.check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check() = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestRecordingsLoad(t *testing.T) {
	for _, p := range liveProviders {
		bodies, err := loadRecordings(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(bodies) != 4 {
			t.Errorf("%s: %d recordings, want 4", p, len(bodies))
		}
	}
	if _, err := loadRecordings("gemini"); err == nil {
		t.Error("recordings of an unknown provider loaded")
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout bytes.Buffer
	err := run(ctx, config{provider: providerReplay, replayProvider: providerAnthropic, question: defaultQuestion, maxTokens: 64, getenv: noEnv}, &stdout)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("run after cancel = %v, want context.Canceled", err)
	}
}
