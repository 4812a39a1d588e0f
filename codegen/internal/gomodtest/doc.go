// Package gomodtest creates throwaway Go modules that depend on this module
// through a replace directive, and runs the go command in them without
// network access: every dependency comes from the module cache, with the
// checksums of this module's go.sum.
package gomodtest
