// Package discovery is the provider-neutral discovery protocol: which tools a
// request declares and in which order, the rules a history must satisfy
// before any provider call, and how a discovery call is answered from a
// permitted catalog.
//
// Declare is the one place that decides what a request declares: the
// application's tools, then the discovery tool when discovery is on, then
// the tools discovered in the history (the latest snapshot of each name, in
// order of first discovery). Prepare applies it to a model.Request for the
// agent runtime or an application; Check lets a provider adapter verify a
// prepared request without the catalog.
//
// ValidateHistory checks a conversation before it is sent: every broken rule
// is a *model.ValidationError naming the message, the part and one of the
// Rule constants of this package or of package model.
//
// A Catalog holds the permitted deferred tools with their snapshots and a
// search index built once. Catalog.Subset derives the catalog of fewer
// tools (another run policy's) without checking them again.
// Catalog.Answer answers a discovery call: exact names first, then the
// query through package toolsearch, each tool found followed by its
// pagination partner when the catalog holds it. Calls to
// discovered tools are checked against the snapshot's JSON Schema before
// they run (CheckArguments); an invalid call becomes an error result.
//
// In conversation catalog mode an emulating adapter declares the dispatcher
// (Dispatcher, named DispatcherName) in place of the discovered tools:
// ParseDispatch and DispatchArguments turn its calls into calls of the
// tools they name and back, and Dispatch checks such a call against the
// tools discovered.
//
// Names the model sees must be portable (ValidateName): PortableName maps
// any other name to one, and NewNameMap detects two names converging on one.
package discovery
