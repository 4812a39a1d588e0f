package toolsearch_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used, so that a
// benchmark on a busy machine can report the work it did apart from the
// time it waited.
func threadCPU() (time.Duration, bool) { return rusage(syscall.RUSAGE_THREAD) }

// processCPU returns the CPU time the whole process has used: the threads
// that help a build and the garbage collector's included.
func processCPU() (time.Duration, bool) { return rusage(syscall.RUSAGE_SELF) }

func rusage(who int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
