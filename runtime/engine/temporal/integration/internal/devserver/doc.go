// Package devserver starts a Temporal server in process on SQLite, in
// memory or in a file: the one way this module starts a server, for its
// tests and for cmd/devserver. It is built on go.temporal.io/server's
// public packages (temporal, config, schema/sqlite): one host, one
// history shard, every service (frontend, history, matching, worker) in
// the calling process, no authentication, no web UI.
package devserver
