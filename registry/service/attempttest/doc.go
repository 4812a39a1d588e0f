// Package attempttest checks that a store.Store follows the rules
// of attempts (registry/service, attempts.go): one sequence of
// claims, hand-overs, returns and results that every store which records
// attempts runs in its tests, so that the rules have one statement whatever
// keeps them.
package attempttest
