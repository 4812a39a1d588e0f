// Package redisstore is a registry Store kept in Redis, so that several
// registry nodes serve one registry: every node given the same Redis and
// the same registry name reads and changes the same state, and any node
// answers any request.
//
// Every rule a Store keeps is one Redis script, which Redis runs alone: a
// registration changes only while its toolset has the token the writer
// read, and bumps the generation in the same step; a call is admitted at
// most once, and only while its token is current; a result is recorded at
// most once. The store also tells the services sharing it the current
// generation (service.SharedStore), so a node reads the registrations
// again before it answers a read that another node's change made stale,
// and records which node forwards a pending call (service.AttemptStore),
// so a call runs on one node at a time.
//
// Keys are named registry NAME's, under "goa-discovery:{NAME}:" (one hash
// slot): gen (the generation), regs and tokens (hashes from toolset to
// registration and token), leases (hash from toolset to a provider's lease),
// call:ID and result:ID (a call's admission and result), calls (a sorted
// set of call IDs by last event, for forgetting) and claim:ID (the node
// forwarding a call). Nothing that matters is kept in a node.
package redisstore
