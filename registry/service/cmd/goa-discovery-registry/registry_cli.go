package main

// The registry's operator commands: "registry ls", "show", "calls" and
// "withdraw", against a running registry (--url) with the credentials of
// its clients: a bearer token read from --credentials-file, and for https
// the CA that verifies the registry (--tls-ca) and a client certificate
// for mutual TLS (--tls-cert, --tls-key). ls, show and calls need the
// inspect scope; withdraw needs consume (to read the current token) and
// publish:TOOLSET. Each prints a table, or JSON with --json.

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/cliflags"
	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// registryClientFlags are the connection arguments of the operator
// commands.
type registryClientFlags struct {
	url             string
	credentialsFile string
	tlsCA           string
	tlsCert         string
	tlsKey          string
	asJSON          bool
}

func (f *registryClientFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "url", "", "the registry's URL, such as http://127.0.0.1:8093 (required)")
	fs.StringVar(&f.credentialsFile, "credentials-file", "", "file holding the bearer token to present (mode 600); none when empty")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "verify the registry's https certificate against these PEM CA certificates")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "present this PEM client certificate (mutual TLS)")
	fs.StringVar(&f.tlsKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.BoolVar(&f.asJSON, "json", false, "print JSON instead of a table")
}

// connect returns the connection the flags ask for, the one construction
// path of every operator command: registry.NewClient checks the URL and
// refuses to send a bearer token over plain http to a host that is not
// loopback, before any request.
func (f *registryClientFlags) connect() (*registryOperator, error) {
	hc, token, err := f.transport()
	if err != nil {
		return nil, err
	}
	opts := []registry.ClientOption{registry.WithHTTPClient(hc)}
	if token != "" {
		opts = append(opts, registry.WithBearerToken(token))
	}
	c, err := registry.NewClient(f.url, opts...)
	if err != nil {
		return nil, fmt.Errorf("--url: %w", err)
	}
	return &registryOperator{base: f.url, client: c, http: hc, token: token}, nil
}

// transport returns the HTTP client and bearer token the flags ask for.
func (f *registryClientFlags) transport() (*http.Client, string, error) {
	switch {
	case f.url == "":
		return nil, "", errors.New("--url is required")
	case (f.tlsCert == "") != (f.tlsKey == ""):
		return nil, "", errors.New("--tls-cert and --tls-key go together")
	}
	if err := registry.ValidateEndpoint(f.url); err != nil {
		return nil, "", fmt.Errorf("--url: %w", err)
	}
	token := ""
	if f.credentialsFile != "" {
		info, err := os.Stat(f.credentialsFile)
		if err != nil {
			return nil, "", fmt.Errorf("--credentials-file: %w", err)
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			return nil, "", fmt.Errorf("--credentials-file %s has mode %v: it holds a secret, allow only its owner (chmod 600)", f.credentialsFile, perm)
		}
		data, err := os.ReadFile(f.credentialsFile)
		if err != nil {
			return nil, "", fmt.Errorf("--credentials-file: %w", err)
		}
		token = strings.TrimSpace(string(data))
		if token == "" || strings.ContainsAny(token, " \t\r\n") {
			return nil, "", fmt.Errorf("--credentials-file %s must hold one bearer token on one line", f.credentialsFile)
		}
	}
	if f.tlsCA == "" && f.tlsCert == "" {
		return http.DefaultClient, token, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if f.tlsCA != "" {
		pem, err := os.ReadFile(f.tlsCA)
		if err != nil {
			return nil, "", fmt.Errorf("--tls-ca: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, "", fmt.Errorf("--tls-ca %s: no PEM certificate", f.tlsCA)
		}
	}
	if f.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey)
		if err != nil {
			return nil, "", fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = cfg
	return &http.Client{Transport: tr}, token, nil
}

// registryOperator is a connection to a registry for the operator
// commands, made by registryClientFlags.connect only: the inspect routes
// are read with the same HTTP client and token that client was checked
// with.
type registryOperator struct {
	base   string
	client *registry.Client
	http   *http.Client
	token  string
}

// get reads path's JSON answer into out; an error answer is the
// registry's error.
func (o *registryOperator) get(ctx context.Context, path string, query url.Values, out any) error {
	u := strings.TrimSuffix(o.base, "/") + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if o.token != "" {
		req.Header.Set("Authorization", "Bearer "+o.token)
	}
	res, err := o.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		var eb registry.ErrorBody
		if json.Unmarshal(body, &eb) == nil && eb.Error != nil {
			return eb.Error
		}
		return fmt.Errorf("GET %s: %s", path, res.Status)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(out)
}

// runRegistryOperator runs one operator subcommand; it returns the exit
// code.
func runRegistryOperator(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) int {
	var f registryClientFlags
	fs := flag.NewFlagSet("registry "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.define(fs)
	pending := false
	limit := service.DefaultCallsLimit
	use := map[string]string{
		"ls":       "usage: goa-discovery-registry ls --url URL [--credentials-file FILE] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--json]",
		"show":     "usage: goa-discovery-registry show TOOLSET[@VERSION] --url URL [--credentials-file FILE] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--json]",
		"calls":    "usage: goa-discovery-registry calls [--pending] [--limit N] --url URL [--credentials-file FILE] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--json]",
		"withdraw": "usage: goa-discovery-registry withdraw TOOLSET@VERSION --url URL [--credentials-file FILE] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] [--json]",
	}[sub]
	if sub == "calls" {
		fs.BoolVar(&pending, "pending", false, "list only the calls without a result")
		fs.IntVar(&limit, "limit", service.DefaultCallsLimit, "most calls listed, the latest first")
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, use)
		fs.PrintDefaults()
	}
	positional, err := cliflags.ParseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	want := 0
	if sub == "show" || sub == "withdraw" {
		want = 1
	}
	if len(positional) != want {
		fmt.Fprintf(stderr, "goa-discovery-registry %s: want %d argument(s), got %q\n%s\n", sub, want, positional, use)
		return 2
	}
	op, err := f.connect()
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery-registry %s: %v\n", sub, err)
		return 2
	}
	var out any
	var table func(io.Writer) error
	switch sub {
	case "ls":
		out, table, err = op.ls(ctx)
	case "show":
		out, table, err = op.show(ctx, positional[0])
	case "calls":
		out, table, err = op.calls(ctx, pending, limit)
	case "withdraw":
		out, table, err = op.withdraw(ctx, positional[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery-registry %s: %v\n", sub, err)
		return 1
	}
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(out)
	} else {
		err = table(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery-registry %s: %v\n", sub, err)
		return 1
	}
	return 0
}

// leaseText describes a registration's lease for a table.
func leaseText(r *service.RegistrationInfo) string {
	switch r.Lease {
	case service.LeaseLive:
		return "live until " + r.LeaseUntil.Format(time.RFC3339)
	case service.LeaseExpired:
		return "expired at " + r.LeaseUntil.Format(time.RFC3339)
	}
	return r.Lease
}

func (o *registryOperator) ls(ctx context.Context) (any, func(io.Writer) error, error) {
	var regs service.Registrations
	if err := o.get(ctx, service.PathRegistrations, nil, &regs); err != nil {
		return nil, nil, err
	}
	return &regs, func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "generation %d, %d toolsets\n", regs.Generation, len(regs.Registrations))
		if len(regs.Registrations) == 0 {
			return tw.Flush()
		}
		fmt.Fprintln(tw, "TOOLSET\tVERSION\tTOOLS\tREVISION\tPROVIDER\tLEASE")
		for i := range regs.Registrations {
			r := &regs.Registrations[i]
			version := r.Toolset.Version
			if version == "" {
				version = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", r.Toolset.Name, version, len(r.Toolset.Tools), r.Revision, r.Endpoint, leaseText(r))
		}
		return tw.Flush()
	}, nil
}

// splitVersion splits TOOLSET[@VERSION].
func splitVersion(arg string) (name, version string, err error) {
	name, version, _ = strings.Cut(arg, "@")
	if name == "" || strings.HasSuffix(arg, "@") {
		return "", "", fmt.Errorf("%q is not TOOLSET[@VERSION]", arg)
	}
	return name, version, nil
}

func (o *registryOperator) show(ctx context.Context, arg string) (any, func(io.Writer) error, error) {
	name, version, err := splitVersion(arg)
	if err != nil {
		return nil, nil, err
	}
	var regs service.Registrations
	if err := o.get(ctx, service.PathRegistrations, url.Values{"toolset": {name}}, &regs); err != nil {
		return nil, nil, err
	}
	if len(regs.Registrations) != 1 {
		return nil, nil, fmt.Errorf("toolset %q: the registry answered %d registrations", name, len(regs.Registrations))
	}
	r := &regs.Registrations[0]
	if version != "" && r.Toolset.Version != version {
		return nil, nil, fmt.Errorf("toolset %q is at version %q, not %q", name, r.Toolset.Version, version)
	}
	return r, func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		ts := &r.Toolset
		fmt.Fprintf(tw, "toolset\t%s\n", versioned(ts.Name, ts.Version))
		fmt.Fprintf(tw, "description\t%s\n", ts.Description)
		fmt.Fprintf(tw, "fingerprint\t%s\n", r.Fingerprint)
		fmt.Fprintf(tw, "revision\t%s\n", r.Revision)
		fmt.Fprintf(tw, "provider\t%s\n", r.Endpoint)
		fmt.Fprintf(tw, "registered\t%s\n", ts.RegisteredAt.Format(time.RFC3339))
		fmt.Fprintf(tw, "lease\t%s\n", leaseText(r))
		fmt.Fprintf(tw, "\nTOOL\tDESCRIPTION\n")
		for _, t := range ts.Tools {
			fmt.Fprintf(tw, "%s\t%s\n", t.Name, t.Description)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, t := range ts.Tools {
			fmt.Fprintf(w, "\n%s\n  payload: %s\n", t.Name, compactJSON(t.Payload))
			if len(t.Result) > 0 {
				fmt.Fprintf(w, "  result:  %s\n", compactJSON(t.Result))
			}
		}
		return nil
	}, nil
}

func versioned(name, version string) string {
	if version == "" {
		return name
	}
	return name + "@" + version
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func (o *registryOperator) calls(ctx context.Context, pending bool, limit int) (any, func(io.Writer) error, error) {
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if pending {
		q.Set("pending", "true")
	}
	var calls service.Calls
	if err := o.get(ctx, registry.PathCalls, q, &calls); err != nil {
		return nil, nil, err
	}
	return &calls, func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		if len(calls.Calls) == 0 {
			fmt.Fprintln(tw, "(no calls)")
			return tw.Flush()
		}
		fmt.Fprintln(tw, "CALL\tTOOL\tSTATE\tADMITTED\tCOMPLETED\tREVISION")
		for _, c := range calls.Calls {
			completed := "-"
			if !c.CompletedAt.IsZero() {
				completed = c.CompletedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.CallID, c.Tool, c.State, c.AdmittedAt.Format(time.RFC3339), completed, c.Revision)
		}
		if calls.Truncated {
			fmt.Fprintf(tw, "(more calls than --limit %d)\n", limit)
		}
		return tw.Flush()
	}, nil
}

// withdrawn is what "registry withdraw --json" prints.
type withdrawn struct {
	Toolset  string `json:"toolset"`
	Version  string `json:"version"`
	Revision string `json:"revision"`
}

func (o *registryOperator) withdraw(ctx context.Context, arg string) (any, func(io.Writer) error, error) {
	name, version, err := splitVersion(arg)
	if err != nil {
		return nil, nil, err
	}
	if version == "" {
		return nil, nil, fmt.Errorf("%q: give TOOLSET@VERSION, the version to withdraw", arg)
	}
	c := o.client
	cat, err := c.ResolveToolsets(ctx, []registry.ToolsetRef{{Name: name, Version: version}})
	if err != nil {
		return nil, nil, err
	}
	cur := cat.Toolsets[0]
	if err := c.Withdraw(ctx, &registry.WithdrawRequest{Toolset: name, Token: cur.Token}); err != nil {
		return nil, nil, err
	}
	out := &withdrawn{Toolset: name, Version: cur.Toolset.Version, Revision: cur.Revision}
	return out, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "withdrew %s (revision %s)\n", versioned(name, out.Version), out.Revision)
		return err
	}, nil
}
