package redisstore_test

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// cpuClock reads the CPU time used by this process (the benchmark's
// clients, nodes and provider) and by the Redis that admin reaches: a cost
// per operation that, unlike a rate, does not move with what else the
// machine runs.
type cpuClock struct {
	b     *testing.B
	admin *redis.Client
}

// read returns the process's and Redis's CPU time so far.
func (c cpuClock) read() (proc, rds time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		c.b.Fatal(err)
	}
	proc = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	info, err := c.admin.Info(context.Background(), "cpu").Result()
	if err != nil {
		c.b.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && (k == "used_cpu_sys" || k == "used_cpu_user") {
			s, err := strconv.ParseFloat(v, 64)
			if err != nil {
				c.b.Fatalf("INFO cpu %s: %v", line, err)
			}
			rds += time.Duration(s * float64(time.Second))
		}
	}
	return proc, rds
}

// per runs f and returns the process's and Redis's CPU microseconds per
// operation of its ops.
func (c cpuClock) per(ops int, f func()) (proc, rds float64) {
	p0, r0 := c.read()
	f()
	p1, r1 := c.read()
	return float64((p1 - p0).Microseconds()) / float64(ops), float64((r1 - r0).Microseconds()) / float64(ops)
}
