package discovery

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, so that a
// benchmark on a busy machine can report the work it did apart from the
// time it waited.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
