//go:build !unix

package runtime_test

import "time"

// processCPU reports no CPU time where the platform offers none.
func processCPU() (time.Duration, bool) { return 0, false }
