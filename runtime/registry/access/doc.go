// Package access decides who may use a registry over HTTP and for what.
//
// A registry's credentials are a list of principals, each with one
// credential and the scopes it grants:
//
//	# name      credential              scopes
//	accounts    token:3f9a…(32+ chars)   publish:customers
//	assistant   token:c01d…              consume call
//	billing     cert:billing.internal   publish:invoices call:invoices
//
// A token credential is presented as "Authorization: Bearer <token>"; a
// cert credential is a client certificate that the server's TLS
// configuration verified (mutual TLS with crypto/tls), matched by its
// subject common name. Scopes:
//
//	consume            list the registry and resolve toolsets
//	call               call any registered tool
//	call:<toolset>     call the tools of one toolset
//	publish:<toolset>  publish and withdraw one toolset
//	publish:*          publish and withdraw any toolset
//	inspect            read registrations with their providers and leases,
//	                   and the admitted calls (registry ls, show, calls)
//
// Everything else is refused: an unknown scope or a malformed line is an
// error when the credentials are read, a request without a credential the
// list knows is unauthenticated (401), and a known one without the scope
// for what it asks is forbidden (403).
package access
