// Package embeddedstore is the embedded store: the store.Store of a single
// registry process, and a service's default (service.New opens it, in
// memory, or persisted to the directory service.WithDataDir names). Every
// change is durable before it is acknowledged: call admissions, hand-overs
// and results are appended to a journal whose syncs concurrent calls
// share; registrations are files of their own. On a full disk reads and
// withdrawals keep working and other changes are refused with
// store.ErrStorageFull; a store that cannot be written when it opens
// serves reads only. Claims live in memory, hand-overs in the journal, so
// a call handed to its provider without a recorded result is never sent
// again, across restarts too. Open opens one to give to several services
// of one process (service.WithStore).
package embeddedstore
