// The company registry of the quickstart: the registry service and the
// accounts service that publishes the generated customers toolset in it.

package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/goa-discovery/goa-discovery/example/gen/toolsets/customers"
	"github.com/goa-discovery/goa-discovery/registry/service"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/access"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
)

// accountsRevision is the deployment revision the accounts service
// publishes the customers toolset under.
const accountsRevision = "accounts-2026.11.30"

// accounts executes the customers toolset for the registry: it is the
// customers.Executor behind the provider endpoint, which
// customers.RegistryExecutor serves.
type accounts struct {
	customers map[string]customers.Customer
	// usage maps a customer to its usage per product over November 2026.
	usage map[string]map[string]int64
}

// newAccounts returns the example's accounts.
func newAccounts() *accounts {
	seats := 40
	return &accounts{
		customers: map[string]customers.Customer{
			"C-7": {ID: "C-7", Name: "Northwind Traders", Email: "ops@northwind.example", Plan: "team", Seats: &seats},
		},
		usage: map[string]map[string]int64{
			"C-7": {"api_calls": 1284000, "exports": 312, "seats_active": 37},
		},
	}
}

// GetCustomer implements customers.Executor.
func (a *accounts) GetCustomer(_ context.Context, args *customers.GetCustomerArgs) (*customers.Customer, error) {
	c, ok := a.customers[args.ID]
	if !ok {
		return nil, fmt.Errorf("accounts: no customer %s", args.ID)
	}
	return &c, nil
}

// CustomerUsage implements customers.Executor.
func (a *accounts) CustomerUsage(_ context.Context, args *customers.CustomerUsageArgs) (map[string]int64, error) {
	u, ok := a.usage[args.ID]
	if !ok {
		return nil, fmt.Errorf("accounts: no usage recorded for customer %s", args.ID)
	}
	if args.From != "2026-11-01" || args.To != "2026-11-30" {
		return nil, fmt.Errorf("accounts: usage is kept for 2026-11-01 to 2026-11-30 only, not %s to %s", args.From, args.To)
	}
	return u, nil
}

// companyRegistry is the registry service and the accounts provider, both
// served on loopback ports. The registry requires credentials even here:
// each start generates two bearer tokens, one that lets the accounts
// service publish its toolset and one that lets the assistant read the
// registry and call that toolset's tools.
type companyRegistry struct {
	svc      *service.Service
	servers  []*http.Server
	url      string
	client   *registry.Client // the assistant's: consume, call:customers
	endpoint string
	// published is the registration of the customers toolset.
	published registry.Registration
}

// serveLoopback serves h on a free 127.0.0.1 port and returns its URL.
func serveLoopback(h http.Handler) (*http.Server, string, error) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	url, err := serveOn(srv, service.DefaultServerLimits.MaxConns)
	return srv, url, err
}

// serveOn serves srv on a free 127.0.0.1 port, at most maxConns
// connections at once, and returns its URL.
func serveOn(srv *http.Server, maxConns int) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go func() { _ = srv.Serve(service.LimitListener(ln, maxConns)) }()
	return "http://" + ln.Addr().String(), nil
}

// newToken returns a random bearer token.
func newToken() string {
	return rand.Text() + rand.Text()
}

// startCompanyRegistry starts the registry, starts the accounts provider
// and publishes the generated customers toolset from it, as the accounts
// service does when it deploys.
func startCompanyRegistry(ctx context.Context) (_ *companyRegistry, err error) {
	c := &companyRegistry{}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.close())
		}
	}()
	toolset := customers.Toolset() // its Tools are customers.ToolSchemas()
	toolset.Version = "1.4.0"
	publisherToken, assistantToken := newToken(), newToken()
	creds, err := access.Parse(strings.NewReader(
		"accounts token:" + publisherToken + " publish:" + toolset.Name + "\n" +
			"assistant token:" + assistantToken + " consume call:" + toolset.Name + "\n"))
	if err != nil {
		return nil, fmt.Errorf("registry credentials: %w", err)
	}
	// The provider runs on this machine: loopback endpoints are allowed.
	if c.svc, err = service.New(service.WithCredentials(creds), service.WithLoopbackEndpoints()); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	srv, err := c.svc.NewServer(service.DefaultServerLimits)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	url, err := serveOn(srv, service.DefaultServerLimits.MaxConns)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	c.servers, c.url = append(c.servers, srv), url
	srv, c.endpoint, err = serveLoopback(registry.ProviderHandler(customers.RegistryExecutor(newAccounts()), 0))
	if err != nil {
		return nil, fmt.Errorf("accounts provider: %w", err)
	}
	c.servers = append(c.servers, srv)
	if c.client, err = registry.NewClient(c.url, registry.WithBearerToken(assistantToken)); err != nil {
		return nil, fmt.Errorf("registry client: %w", err)
	}
	publisher, err := registry.NewClient(c.url, registry.WithBearerToken(publisherToken))
	if err != nil {
		return nil, fmt.Errorf("registry client: %w", err)
	}

	fp, err := contract.Fingerprint(&toolset)
	if err != nil {
		return nil, fmt.Errorf("fingerprint %s: %w", toolset.Name, err)
	}
	res, err := publisher.Publish(ctx, &registry.PublishRequest{
		Toolset: toolset, Fingerprint: fp, Revision: accountsRevision, Endpoint: c.endpoint,
	})
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", toolset.Name, err)
	}
	c.published = res.Registration
	return c, nil
}

// close stops the servers and the service.
func (c *companyRegistry) close() error {
	var errs []error
	for _, s := range c.servers {
		if err := s.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	if c.svc != nil {
		errs = append(errs, c.svc.Close())
	}
	return errors.Join(errs...)
}
