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
// generation (service.Store's Generation), so a node reads the registrations
// again before it answers a read that another node's change made stale,
// and records which node forwards a pending call and whether it was handed
// to its provider (service.Store's attempts), each step checked against the
// fence of the node's claim, so that a call is sent at most once at a time
// and never again once its outcome is unknown.
//
// A new call is admitted, claimed and handed over by one script
// (service.Store's AdmitAndHandOver), and its result recorded by another: two round
// trips, which the scripts of a node's concurrent calls share (go-redis's
// autopipeliner: what is sent while Redis answers earlier scripts goes out
// in one write), so that Redis reads, runs and, with appendfsync always,
// syncs them in one turn of its event loop. Reads are answered from the
// node's cache while its generation watch (watch.go) knows every change
// acknowledged more than the staleness bound ago (WithMaxStaleness), with
// no round trip. With WithReplicas every answer waits for every Redis
// replica connected to the primary to have its state (replicas.go), so
// that a Sentinel failover loses nothing acknowledged. On a Redis Cluster every key of a registry is in
// its one hash slot.
//
// Keys are named registry NAME's, under "goa-discovery:{NAME}:" (one hash
// slot): gen (the generation), id (the registry's identity, by which a
// node finds that Redis lost acknowledged changes: identity.go), regs and tokens (hashes from toolset to
// registration and token), leases (hash from toolset to a provider's lease),
// call:ID (a hash of call ID's record, result, claim and hand-over: the
// claim holds the fence, the node and the deadline, on Redis's clock, it
// is current until), callindex (a sorted set of call IDs by last event,
// for listing and forgetting), fence (the counter of fences), barrier (the
// counter WAIT follows) and the channel changes (the generations the
// change scripts made). Nothing that matters is kept in a node.
//
// Instrument times every Redis command of the store (MetricStoreDuration)
// and exports whether Redis's settings keep acknowledged changes across a
// restart (MetricStoreDurable, CheckDurability);
// Logger sends go-redis's own log messages to a slog.Logger.
package redisstore
