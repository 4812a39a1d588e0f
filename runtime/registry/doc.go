// Package registry is the wire protocol of the tool registry and its HTTP
// client.
//
// Providers publish a toolset's tools.ToolsetSchema with a deployment-issued
// revision and the endpoint that executes its tools (PublishRequest). The
// registry answers with a Registration whose Token is derived from the
// toolset's fingerprint and the revision (NewToken): republishing the same
// fingerprint and revision changes nothing, anything else replaces the
// registration and the old token stops being admitted.
//
// Consumers read the whole registry (ListToolsets) or named toolsets with an
// optional pinned version (ResolveToolsets), and call a resolved tool with
// the token it was resolved under (CallResolvedTool). The registry admits a
// call only under the current token of its toolset (otherwise
// ErrCallNotAdmitted), records the admission under the call's ID, forwards
// it to the provider's endpoint and keeps its result: a retry of the same
// call after an overload reuses the admission, reports ErrAdmissionConflict
// when that admission was replaced meanwhile, and returns the recorded
// result once there is one.
//
// Over HTTP every request carries credentials (WithBearerToken, sent only
// over https or to loopback unless WithPlainHTTPTokens, or a client
// certificate) whose scopes the registry checks (package registry/access), and catalogs travel in pages that the Client follows
// (Catalog.Next), each at most MaxAnswerRecordBytes of records, so that
// whatever the registry accepts its Client can read. Published schemas are
// bounded by SchemaLimits before they compile.
//
// The package holds the records and errors of that protocol, the strict
// request decoder both sides use, the HTTP Client, and ProviderHandler, the
// handler a provider mounts at its endpoint. The service with its embedded
// store lives in package registry/service; both it and Client implement
// Consumer and Publisher.
package registry
