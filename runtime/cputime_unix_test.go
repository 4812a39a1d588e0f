//go:build unix

package runtime_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used on all its threads,
// the garbage collector's included, so that a benchmark on a busy machine
// can report the work it did apart from the time it waited.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
