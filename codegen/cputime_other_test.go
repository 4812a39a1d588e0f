//go:build !unix

package codegen_test

import "time"

// cpuTime is not measured on this platform; benchmarks report zero.
func cpuTime() time.Duration { return 0 }
