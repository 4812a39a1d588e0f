// Package store is the registry server's store boundary: the Store
// contract every store of a service.Service implements (package
// embeddedstore, the default, and package redisstore), the records it
// keeps (CallRecord), the states of a call's attempts and the errors a
// Store wraps. Package service names each of them too (service.Store and
// the others are aliases), and package attempttest checks a Store against
// the rules of attempts.
package store
