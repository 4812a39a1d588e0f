//go:build unix

package codegen_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time of this process and of its
// waited-for children, so that benchmarks report work done, not the wall
// time a loaded machine stretches.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}
