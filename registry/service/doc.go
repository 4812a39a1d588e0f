// Package service is the tool registry service: the state machine of
// registrations and admitted calls, the Store it keeps them in (the embedded
// store of package embeddedstore by default; the contract is package
// store), the HTTP handler that serves the registry protocol
// (package registry), and the forwarder that carries admitted calls to the
// providers' endpoints.
//
// A Service is usable in-process (it implements registry.Consumer and
// registry.Publisher) and over HTTP (Handler). Its embedded store is in
// memory, and persisted to a directory when one is given (WithDataDir):
// every change is durable before it is acknowledged, so a restarted service
// has every registration, admission and result it acknowledged, and a
// change that could not be written was not made. Call admissions and
// results are appended to a journal whose syncs concurrent calls share;
// registrations are files of their own. On a full disk reads and
// withdrawals keep working and other changes are refused with
// registry.ErrStorageFull; a store that cannot be written when it opens
// serves reads only. WithStore puts the state in another Store, such as
// the Redis store of package redisstore, which several services share as
// the nodes of one registry. Every Store records attempts (the embedded
// store's hand-overs are in the journal), so each pending call is forwarded
// by one node at a time under a fenced claim and sent to its provider at
// most once unless the provider answered that it failed, across restarts;
// a new call is admitted, claimed and handed over in one step, two store
// round trips in all. A shared store (StoreTraits.Shared) is read again
// before a read that another node's change made stale, and one that keeps
// leases (StoreTraits.Leases) lets WithProviderLease report providers that
// stopped renewing.
//
// Over HTTP, the Handler admits only requests with credentials
// (WithCredentials) unless told WithInsecure, checks the scope of a
// request's route before reading its body and bounds each principal's
// share of the requests in flight (WithMaxRequestsPerPrincipal), and
// answers catalogs in pages; NewServer and LimitListener give it the
// timeouts and the connection limit that keep slow clients from holding
// it. Endpoints are normalized (registry.NormalizeEndpoint) before the
// rules check them and stored normalized; the rules refuse endpoints
// outside an allowlist (WithEndpointAllowlist), the registry's own
// addresses (WithSelfAddress), and addresses inside its network unless
// allowed explicitly (addresses.go, WithLoopbackEndpoints). A call whose
// result the store refused after its provider ran it is never sent again
// (unrecorded.go). Errors that
// reach clients name what failed, never internal paths, URLs or addresses.
//
// Operators see every request: the Handler writes one access record per
// request to the service's logger (WithLogger: principal, scope, toolset,
// tool, outcome, status, duration and request id, never a credential, a
// token, a payload or a result), counts it and times it by route and
// outcome (WithMeterProvider) and spans it (WithTracerProvider), and counts
// the claims a node holds on the calls it forwards and their renewals.
// PathHealthz and PathReadyz answer load balancers without credentials
// (PathReadyz: the store answers, and the claims' renewals hold); the inspect
// scope reads the registrations with their providers and leases
// (PathRegistrations) and the admitted calls (GET registry.PathCalls) that
// "goa-discovery-registry ls|show|calls" print.
package service
