// Package service is the tool registry service: the state machine of
// registrations and admitted calls, its embedded store, the HTTP handler
// that serves the registry protocol (package registry), and the forwarder
// that carries admitted calls to the providers' endpoints.
//
// A Service is usable in-process (it implements registry.Consumer and
// registry.Publisher) and over HTTP (Handler). Its store is in memory, and
// persisted to a directory when one is given (WithDataDir): every change is
// written atomically before it is acknowledged, so a restarted service has
// every registration, admission and result it acknowledged, and a change
// that could not be written was not made.
//
// Over HTTP, the Handler admits only requests with credentials
// (WithCredentials) unless told WithInsecure, refuses endpoints that break
// its rules (WithEndpointAllowlist, WithSelfAddress) and answers catalogs
// in pages; NewServer and LimitListener give it the timeouts and the
// connection limit that keep slow clients from holding it. Errors that
// reach clients name what failed, never internal paths, URLs or addresses.
package service
