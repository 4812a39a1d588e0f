// Package runtimeclient connects a registry consumer (the HTTP
// registry.Client, or an in-process registry service) to the agent runtime:
//
//	client, err := runtimeclient.NewHTTP(url,
//		registry.WithBearerToken(os.Getenv("REGISTRY_TOKEN")), // scopes: consume call
//		registry.WithCallRetries(2, time.Second))
//	...
//	err = rt.RegisterRegistry("company", client)
//
// The runtime reads its registry sources once per planning step: a whole
// registry through ListToolsets, and a step's named toolsets through
// ResolveToolsets in one read (the registry checks pinned versions), so that
// no withdrawal or replacement falls between them; every answer carries the
// registry's generation. Accepted calls go through CallTool with the token
// each call was accepted under. The registry keys its admissions by call
// ID; CallTool derives that ID from the run, the step and the model's call
// ID, so that the same call of the same run, retried or replayed after a
// restore, finds its admission and recorded result, while calls of
// different runs, or of different steps reusing one model call ID, never
// meet.
//
// A client of a registry cluster is given every node's URL
// (registry.WithFailover); a step's read goes to one node, and to the next
// when that one cannot be reached, so it is still one read.
package runtimeclient
