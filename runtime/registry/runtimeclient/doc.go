// Package runtimeclient connects a registry consumer (the HTTP
// registry.Client, or an in-process registry service) to the agent runtime:
//
//	client, err := registry.NewClient(url, registry.WithCallRetries(2, time.Second))
//	...
//	err = rt.RegisterRegistry("company", runtimeclient.New(client))
//
// The runtime reads its registry sources once per planning step through
// ResolveToolset, ResolveToolsetVersion (a pinned source, whose version the
// registry itself checks) and ListToolsets, and forwards accepted calls through
// CallTool with the token each call was accepted under. The registry keys
// its admissions by call ID; CallTool derives that ID from the run and the
// model's call ID, so that the same call of the same run, retried or
// replayed after a restore, finds its admission and recorded result, while
// calls of different runs never meet.
package runtimeclient
