// Package handoff holds the tests that continue one conversation across the
// provider adapters: a history that one adapter (in one discovery rendering)
// started, stored as JSON and reloaded, goes on with every other adapter and
// rendering, which must accept it, keep the tools it discovered callable,
// send no other provider's native records, and keep the rendered earlier
// messages stable from step to step. It has no code of its own.
package handoff
