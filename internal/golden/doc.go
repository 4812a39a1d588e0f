// Package golden compares what tests produce with the expected files they
// keep under testdata, and rewrites those files when the tests run with the
// environment variable GOA_DISCOVERY_UPDATE set to 1 (UpdateEnv):
//
//	GOA_DISCOVERY_UPDATE=1 go test ./...
//
// refreshes every golden file of a module; git diff then shows what changed.
package golden
