//go:build !linux

package toolsearch_test

import "time"

// threadCPU reports that thread CPU time is not measured on this system.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU reports that process CPU time is not measured on this system.
func processCPU() (time.Duration, bool) { return 0, false }
