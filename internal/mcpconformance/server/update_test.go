package main

// go test ./... -update refreshes the module's golden files: every test
// binary it builds must accept the flag, which package golden defines.
import _ "github.com/goa-discovery/goa-discovery/internal/golden"
