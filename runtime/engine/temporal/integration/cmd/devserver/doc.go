// Command devserver runs a Temporal server in process for local work: on
// 127.0.0.1:7233 by default, with one namespace, its state in memory or in
// a SQLite file that survives restarts. It prints one line when a client
// can use the namespace, and stops on SIGINT or SIGTERM, saying so. It has no
// authentication and no web UI, so it refuses an address other than
// loopback unless --allow-non-loopback says so.
//
//	cd runtime/engine/temporal/integration && go run ./cmd/devserver
package main
