package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// roundTrips is a go-redis hook that counts the round trips a client makes
// (a command, or a pipeline of them) and the time they take, by what they
// carry: the command's name, or for a pipeline of several the distinct
// names in it joined by "+" and marked "(pipelined)", with the commands it
// carried; a script by its first key's last name part ("evalsha call:" →
// "evalsha call").
type roundTrips struct {
	mu    sync.Mutex
	count map[string]int
	cmds  map[string]int
	took  map[string]time.Duration
}

func newRoundTrips() *roundTrips {
	return &roundTrips{count: make(map[string]int), cmds: make(map[string]int), took: make(map[string]time.Duration)}
}

func (r *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		t0 := time.Now()
		err := next(ctx, cmd)
		r.add(cmdLabel(cmd), 1, time.Since(t0))
		return err
	}
}

func (r *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		t0 := time.Now()
		err := next(ctx, cmds)
		var names []string
		for _, c := range cmds {
			if l := cmdLabel(c); !slices.Contains(names, l) {
				names = append(names, l)
			}
		}
		slices.Sort(names)
		label := strings.Join(names, "+")
		if len(cmds) > 1 {
			label += " (pipelined)"
		}
		r.add(label, len(cmds), time.Since(t0))
		return err
	}
}

func (r *roundTrips) add(label string, cmds int, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count[label]++
	r.cmds[label] += cmds
	r.took[label] += d
}

// take returns the round trips and their times since the last take, and
// resets them.
func (r *roundTrips) take() (map[string]int, map[string]time.Duration) {
	c, _, t := r.takeAll()
	return c, t
}

// takeAll is take with the commands the round trips carried.
func (r *roundTrips) takeAll() (trips, cmds map[string]int, took map[string]time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	trips, cmds, took = r.count, r.cmds, r.took
	r.count, r.cmds, r.took = make(map[string]int), make(map[string]int), make(map[string]time.Duration)
	return trips, cmds, took
}

func cmdLabel(cmd redis.Cmder) string {
	name := cmd.Name()
	args := cmd.Args()
	if (name == "evalsha" || name == "eval") && len(args) > 3 {
		key := fmt.Sprint(args[3])
		if i := strings.LastIndex(key, "}:"); i >= 0 {
			key = key[i+2:]
		}
		if i := strings.IndexByte(key, ':'); i >= 0 {
			key = key[:i]
		}
		return name + " " + key
	}
	return name
}

// commandStats returns Redis's INFO commandstats: calls by command.
func commandStats(ctx context.Context, rdb *redis.Client) (map[string]int64, error) {
	info, err := rdb.Info(ctx, "commandstats").Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64)
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		for _, f := range strings.Split(rest, ",") {
			if v, ok := strings.CutPrefix(f, "calls="); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				out[strings.TrimPrefix(name, "cmdstat_")] = n
			}
			if v, ok := strings.CutPrefix(f, "usec="); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				out[strings.TrimPrefix(name, "cmdstat_")+" µs"] = n
			}
		}
	}
	return out, nil
}

// statsDelta formats after minus before, by command, sorted, per op.
func statsDelta(before, after map[string]int64, ops int) (string, float64) {
	var names []string
	total := 0.0
	for name, n := range after {
		if n-before[name] > 0 && name != "info" && !strings.HasSuffix(name, " µs") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var parts []string
	for _, name := range names {
		per := float64(after[name]-before[name]) / float64(ops)
		total += per
		us := float64(after[name+" µs"]-before[name+" µs"]) / float64(after[name]-before[name])
		parts = append(parts, fmt.Sprintf("%s %.2f (%.0f µs in Redis)", name, per, us))
	}
	return strings.Join(parts, ", "), total
}

// tripsTable formats round-trip counts per op, their mean times and, for
// pipelines, the mean commands they carried.
func tripsTable(count, cmds map[string]int, took map[string]time.Duration, ops int) (string, float64) {
	var labels []string
	total := 0
	for l, n := range count {
		labels = append(labels, l)
		total += n
	}
	slices.Sort(labels)
	var parts []string
	for _, l := range labels {
		part := fmt.Sprintf("%s %.2f (%.0f µs", l, float64(count[l])/float64(ops), float64(took[l].Microseconds())/float64(count[l]))
		if strings.HasSuffix(l, "(pipelined)") {
			part += fmt.Sprintf(", %.1f commands", float64(cmds[l])/float64(count[l]))
		}
		parts = append(parts, part+")")
	}
	return strings.Join(parts, ", "), float64(total) / float64(ops)
}

// hostPort returns the host and port of a redis:// URL.
func hostPort(url string) (string, string) {
	opt, _ := redis.ParseURL(url)
	h, p, _ := net.SplitHostPort(opt.Addr)
	return h, p
}
