package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

var metricsURL = regexp.MustCompile(`metrics serving (http://\S+/metrics)`)

// cli runs the command and returns its exit code, standard output and
// error.
func cli(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestRegistryOperatorWalk serves a registry with a JSON log and metrics,
// publishes and calls through it, then lists, shows, lists calls and
// withdraws with the CLI, scrapes /metrics and reads the log: every request
// has its record, and no credential or payload is in it.
func TestRegistryOperatorWalk(t *testing.T) {
	const secret = "payload-secret-77aa"
	ctx := context.Background()
	provider := httptest.NewServer(registry.ProviderHandler(registry.ExecutorFunc(func(_ context.Context, call *registry.CallRequest) (json.RawMessage, error) {
		if call.Tool == "notes.slow" {
			return nil, registry.Errorf(registry.CodeOverloaded, "busy")
		}
		return json.RawMessage(`{"saved":true}`), nil
	}), 0))
	defer provider.Close()
	url, stdout, stderr, stop := startRegistryOutput(t, "--allow-endpoint", provider.URL, "--log-format", "json", "--log-level", "info", "--metrics-addr", "127.0.0.1:0")
	defer stop()
	m := metricsURL.FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no metrics address in %q", stdout.String())
	}

	client, err := registry.NewClient(url, registry.WithBearerToken(cliTestToken))
	if err != nil {
		t.Fatal(err)
	}
	payload := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	pub, err := client.Publish(ctx, &registry.PublishRequest{
		Toolset: tools.ToolsetSchema{Name: "notes", Version: "1.0.0", Description: "Notes", Tools: []tools.ToolSchema{
			{Name: "notes.add", Description: "Add a note", Payload: payload},
			{Name: "notes.slow", Description: "Add a note slowly", Payload: payload},
		}},
		Revision: "build-1",
		Endpoint: provider.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	tok := pub.Registration.Token
	if _, err := client.CallResolvedTool(ctx, &registry.CallRequest{CallID: "n1", Tool: "notes.add", Token: tok, Payload: json.RawMessage(`{"text":"` + secret + `"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CallResolvedTool(ctx, &registry.CallRequest{CallID: "n2", Tool: "notes.slow", Token: tok, Payload: json.RawMessage(`{"text":"later"}`)}); err == nil {
		t.Fatal("the overloaded provider's call succeeded")
	}

	creds := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(creds, []byte(cliTestToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	conn := []string{"--url", url, "--credentials-file", creds}
	steps := []struct {
		name string
		args []string
		code int
		want []string // regular expressions the output matches
	}{
		{"ls", append([]string{"ls"}, conn...), 0, []string{`generation 1, 1 toolsets`, `(?m)^notes +1\.0\.0 +2 +build-1 +` + regexp.QuoteMeta(provider.URL+"/") + ` +none$`}},
		{"show", append([]string{"show", "notes@1.0.0"}, conn...), 0, []string{`(?m)^fingerprint +` + regexp.QuoteMeta(string(pub.Registration.Fingerprint)) + `$`, `(?m)^provider +` + regexp.QuoteMeta(provider.URL), `(?m)^notes\.add +Add a note$`, `payload: \{"type":"object"`, `(?m)^lease +none$`}},
		{"show flags after", []string{"show", "notes", "--url", url, "--credentials-file", creds}, 0, []string{`(?m)^toolset +notes@1\.0\.0$`}},
		{"show other version", append([]string{"show", "notes@2.0.0"}, conn...), 1, []string{`toolset "notes" is at version "1.0.0", not "2.0.0"`}},
		{"show missing", append([]string{"show", "shelf"}, conn...), 1, []string{`toolset "shelf" is not registered`}},
		{"calls", append([]string{"calls"}, conn...), 0, []string{`(?m)^n1 +notes\.add +done `, `(?m)^n2 +notes\.slow +pending `}},
		{"calls pending", append([]string{"calls", "--pending"}, conn...), 0, []string{`(?m)^n2 +notes\.slow +pending `, `^CALL[^\n]*\n[^\n]*\n$`}},
		{"no credentials", []string{"ls", "--url", url}, 1, []string{`unauthenticated`}},
		{"withdraw without version", append([]string{"withdraw", "notes"}, conn...), 1, []string{`give TOOLSET@VERSION`}},
		{"withdraw", append([]string{"withdraw", "notes@1.0.0"}, conn...), 0, []string{`^withdrew notes@1\.0\.0 \(revision build-1\)\n$`}},
		{"ls after", append([]string{"ls"}, conn...), 0, []string{`generation 2, 0 toolsets`}},
	}
	for _, st := range steps {
		code, out, errOut := cli(st.args...)
		if code != st.code {
			t.Fatalf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", st.name, code, st.code, out, errOut)
		}
		for _, w := range st.want {
			if !regexp.MustCompile(w).MatchString(out + errOut) {
				t.Errorf("%s: output does not match %s:\n%s%s", st.name, w, out, errOut)
			}
		}
	}

	// --json prints what the registry answered.
	code, out, errOut := cli(append([]string{"calls", "--json"}, conn...)...)
	var calls service.Calls
	if code != 0 || json.Unmarshal([]byte(out), &calls) != nil || len(calls.Calls) != 2 {
		t.Fatalf("calls --json: %d %s %s", code, out, errOut)
	}

	// /metrics parses, and counts the requests by route and outcome.
	res, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	count := func(route, outcome string) float64 {
		f := families["goa_discovery_registry_requests_total"]
		if f == nil {
			return -1
		}
		var n float64
		for _, mt := range f.Metric {
			labels := map[string]string{}
			for _, l := range mt.Label {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["route"] == route && labels["outcome"] == outcome {
				n += mt.GetCounter().GetValue()
			}
		}
		return n
	}
	for _, c := range []struct {
		route, outcome string
		want           float64
	}{{"publish", "ok", 1}, {"call", "ok", 1}, {"call", "overloaded", 1}, {"withdraw", "ok", 1}, {"registrations", "ok", 5}, {"registrations", "unauthenticated", 1}, {"registrations", "toolset_not_found", 1}} {
		if got := count(c.route, c.outcome); got != c.want {
			t.Errorf("requests{route=%s,outcome=%s} = %v, want %v", c.route, c.outcome, got, c.want)
		}
	}
	for _, name := range []string{"goa_discovery_registry_request_duration_seconds", "goa_discovery_registry_calls_forwarding"} {
		if families[name] == nil {
			names := make([]string, 0, len(families))
			for n := range families {
				names = append(names, n)
			}
			t.Errorf("/metrics has no %s; it has %v", name, names)
		}
	}

	// The log: one JSON record per request, none with a secret.
	routes := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(stderr.String()))
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", sc.Text(), err)
		}
		if r, ok := rec["route"].(string); ok {
			routes[r]++
			if rec["request_id"] == "" {
				t.Errorf("record without request id: %v", rec)
			}
		}
	}
	if routes["publish"] != 1 || routes["call"] != 2 || routes["withdraw"] != 1 || routes["calls"] != 3 {
		t.Errorf("access records by route %v", routes)
	}
	for _, s := range []string{cliTestToken, string(tok), secret} {
		if strings.Contains(stderr.String(), s) {
			t.Errorf("the log holds %q", s)
		}
	}
}

func TestRegistryOperatorFlags(t *testing.T) {
	loose := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(loose, []byte(cliTestToken), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ls"}, 2, "--url is required"},
		{[]string{"ls", "--url", "ftp://x"}, 2, "--url"},
		{[]string{"ls", "--url", "http://127.0.0.1:1", "--credentials-file", loose}, 2, "chmod 600"},
		{[]string{"ls", "--url", "http://127.0.0.1:1", "--tls-cert", "c.pem"}, 2, "--tls-cert and --tls-key go together"},
		{[]string{"show", "--url", "http://127.0.0.1:1"}, 2, "want 1 argument"},
		{[]string{"ls", "extra", "--url", "http://127.0.0.1:1"}, 2, "want 0 argument"},
		{[]string{"calls", "-h"}, 0, "--pending"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--log-format", "xml"}, 2, "--log-format must be text or json"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--log-level", "loud"}, 2, "--log-level must be"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--insecure", "--otlp-endpoint", "ftp://x"}, 2, "--otlp-endpoint must be"},
	} {
		code, out, errOut := cli(c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%q: exit %d, output %q; want %d and %q", c.args, code, out+errOut, c.code, c.want)
		}
	}
}

// roundTripRecorder answers every request with an error, recording its
// URL and Authorization header: a request made through it reaches no
// network.
type roundTripRecorder struct{ sent []string }

func (r *roundTripRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.sent = append(r.sent, req.URL.String()+" Authorization="+req.Header.Get("Authorization"))
	return nil, errors.New("test: no network")
}

// TestRegistryOperatorPlainHTTPToken: every operator command refuses to
// send its bearer token over plain http to a host that is not loopback,
// before any request, as the library's client does; without a token, and
// to loopback, the request goes out. http.DefaultTransport is replaced for
// the test, so nothing is dialed.
func TestRegistryOperatorPlainHTTPToken(t *testing.T) {
	creds := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(creds, []byte(cliTestToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := &roundTripRecorder{}
	saved := http.DefaultTransport
	http.DefaultTransport = rec
	defer func() { http.DefaultTransport = saved }()
	commands := [][]string{{"ls"}, {"show", "notes"}, {"calls"}, {"calls", "--pending"}, {"withdraw", "notes@1.0.0"}}
	for _, cmd := range commands {
		for _, tc := range []struct {
			url     string
			token   bool
			refused bool
		}{
			{"http://registry.example:8093", true, true},
			{"http://10.0.0.8:8093", true, true},
			{"http://[64:ff9b::a00:8]:8093", true, true},
			{"http://registry.example:8093", false, false},
			{"http://127.0.0.1:8093", true, false},
			{"http://localhost:8093", true, false},
			{"http://[::1]:8093", true, false},
		} {
			rec.sent = nil
			args := slices.Clone(cmd)
			args = append(args, "--url", tc.url)
			if tc.token {
				args = append(args, "--credentials-file", creds)
			}
			code, out, errOut := cli(args...)
			if tc.refused {
				if code != 2 || !strings.Contains(errOut, "plain http to a host that is not loopback") || len(rec.sent) != 0 {
					t.Errorf("%q: exit %d, output %q, requests %q; want exit 2 refusing plain http before any request", args, code, out+errOut, rec.sent)
				}
				continue
			}
			want := tc.url + "/v1/"
			if len(rec.sent) == 0 || !strings.HasPrefix(rec.sent[0], want) || strings.Contains(rec.sent[0], "Authorization=Bearer") != tc.token {
				t.Errorf("%q: exit %d, requests %q; want one to %s, with a token: %v", args, code, rec.sent, want, tc.token)
			}
		}
	}
}
