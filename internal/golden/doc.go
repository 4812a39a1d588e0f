// Package golden compares what tests produce with the expected files they
// keep under testdata, and rewrites those files when the tests run with
// -update:
//
//	go test ./... -update
//
// refreshes every golden file of the module. Go passes -update to every test
// binary that the pattern selects, and a binary that does not define the flag
// fails, so every test package of the module imports this package, for its
// helpers or only for the flag; TestEveryTestPackageImportsGolden keeps it so.
package golden
