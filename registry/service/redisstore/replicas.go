package redisstore

// Replicated acknowledgements (WithReplicas). Redis replicates to its
// replicas asynchronously: a primary answers a write before any replica
// has it, so a failover that promotes a replica loses the writes it had
// not received, acknowledged or not. WAIT n blocks the connection until n
// replicas confirm every write the connection made; the store sends it in
// the same pipeline as the script, after an INCR of the registry's barrier
// key, so that the WAIT covers the script's writes and, for a script that
// wrote nothing or a read, everything the primary had executed before,
// which includes whatever the script or the read saw.
//
// The store acknowledges a state only once every replica connected to the
// primary has it, and at least the minimum that WithReplicas sets: a
// failover then promotes a replica holding everything acknowledged,
// whichever replica Redis Sentinel picks (it picks by the replication
// offsets it last read, which may be a second old), and writes go on as
// soon as the promoted primary has the minimum connected. The pipeline
// ends with INFO replication, read right after WAIT answered: a state is
// acknowledged when WAIT's count of replicas that confirmed it is at
// least the minimum and at least the number of replicas connected then
// (connected_slaves, which counts a replica still syncing). A replica that
// joined before the INFO is counted, so no state is acknowledged without
// it; one that joins after it receives the state in its sync. (Redis may
// run the INFO a turn of its event loop after it answered the WAIT: a
// replica that left and another that joined within that turn would leave
// the count unchanged.) When fewer
// confirmed, the store waits again, for the count it read (INCR, WAIT,
// INFO in one more round trip), until the replica timeout. The WAIT
// target is the count the last INFO read, and each WAIT lasts at most
// replicaSlice, so that a count gone stale (a replica that left, a new
// primary with fewer replicas) costs a slice, not the replica timeout.
//
// What WAIT does not give: a replica confirms it received a write, not
// that it synced it to its disk; a replica cut off without its connection
// closing stays counted until the primary drops it (repl-timeout), and
// changes wait for it meanwhile; a replica that lost its link counts no
// more, so that a failure of that replica and then of the primary may
// lose what was acknowledged between the two; and a write whose WAIT
// timed out may still be on the primary (and be read) until a failover
// drops it. The store reports such a write as service.ErrUnavailable.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// replicaSlice bounds one WAIT of a change; see the file comment.
const replicaSlice = 100 * time.Millisecond

// eval runs a script, waiting for the replicas when the store has some,
// and returns the script's command (its answer or its error).
func (s *Store) eval(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.cfg.replicas == 0 {
		return sc.Run(ctx, s.scripts, keys, args...)
	}
	start := time.Now()
	for body := false; ; body = true {
		var ev *redis.Cmd
		var b barrier
		_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			if body {
				ev = sc.Eval(ctx, p, keys, args...)
			} else {
				ev = sc.EvalSha(ctx, p, keys, args...)
			}
			b = s.barrier(ctx, p, start)
			return nil
		})
		if err != nil && !body && redis.HasErrorPrefix(ev.Err(), "NOSCRIPT") {
			// A primary promoted since, or restarted, has not loaded it:
			// the script's body is sent, which it then keeps (a SCRIPT
			// LOAD first could reach a primary promoted after it).
			continue
		}
		if ev.Err() == nil {
			if err := s.replicated(ctx, b, start); err != nil {
				ev.SetErr(err)
			}
		}
		return ev
	}
}

// barrier is the commands that follow what a state is acknowledged for:
// the WAIT, and the INFO replication read after it.
type barrier struct {
	incr *redis.IntCmd
	wait *redis.IntCmd
	info *redis.StringCmd
}

// barrier queues, after the commands of p, the INCR of the barrier key,
// the WAIT for the replicas the store counts now (at least the minimum),
// lasting at most replicaSlice and until start plus the replica timeout,
// and the INFO replication that counts the replicas connected after it.
func (s *Store) barrier(ctx context.Context, p redis.Pipeliner, start time.Time) barrier {
	var b barrier
	b.incr = p.Incr(ctx, s.key("barrier"))
	target := max(s.cfg.replicas, int(s.connected.Load()))
	ms := min(s.cfg.replicaTimeout-time.Since(start), replicaSlice).Milliseconds()
	b.wait = redis.NewIntCmd(ctx, "wait", target, max(ms, 1)) // WAIT n 0 would wait for ever
	_ = p.Process(ctx, b.wait)
	b.info = p.Info(ctx, "replication")
	return b
}

// replicated returns once the state before b is on every replica
// connected to the primary and on at least the minimum, waiting again
// (INCR, WAIT, INFO) while fewer confirmed it, until start plus the
// replica timeout; then, or when ctx ends, it is the error of a state
// that may be on the primary only.
func (s *Store) replicated(ctx context.Context, b barrier, start time.Time) error {
	for {
		if err := b.incr.Err(); err != nil {
			return unconfirmed(err)
		}
		confirmed, err := b.wait.Result()
		if err != nil {
			return unconfirmed(err)
		}
		text, err := b.info.Result()
		if err != nil {
			return unconfirmed(err)
		}
		connected, err := connectedReplicas(text)
		if err != nil {
			return err
		}
		s.connected.Store(int64(connected))
		need := max(s.cfg.replicas, connected)
		if int(confirmed) >= need {
			return nil
		}
		if time.Since(start) >= s.cfg.replicaTimeout || ctx.Err() != nil {
			return fmt.Errorf("%w: %d of %d replicas confirmed within %v", errNotReplicated, confirmed, need, s.cfg.replicaTimeout)
		}
		// The next turn reads the new barrier's errors: a failed barrier
		// is unconfirmed, whatever Redis replied.
		_, _ = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			b = s.barrier(ctx, p, start)
			return nil
		})
	}
}

// connectedReplicas reads connected_slaves from the text of INFO
// replication.
func connectedReplicas(info string) (int, error) {
	const field = "connected_slaves:"
	i := strings.Index(info, field)
	if i < 0 {
		return 0, fmt.Errorf("INFO replication has no %s", strings.TrimSuffix(field, ":"))
	}
	v := info[i+len(field):]
	if j := strings.IndexAny(v, "\r\n"); j >= 0 {
		v = v[:j]
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("INFO replication: %s%q is not a count", field, v)
	}
	return n, nil
}

// errNotReplicated: WAIT timed out, or the barrier failed; classify
// makes it service.ErrUnavailable.
var errNotReplicated = fmt.Errorf("not replicated")

// unconfirmed is the error of a barrier that failed: the Redis reached
// cannot confirm the state, as a primary demoted under a failover client
// answers READONLY and "WAIT cannot be used with replica instances".
// Whatever Redis replied, the state may be on the primary only, so the
// reply is kept as text and the error is errNotReplicated, which classify
// makes service.ErrUnavailable.
func unconfirmed(err error) error {
	return fmt.Errorf("%w: the barrier failed: %v", errNotReplicated, err)
}

// read runs the command that q queues, followed by the replicas' barrier
// when the store has replicas.
func (s *Store) read(ctx context.Context, q func(redis.Cmdable) *redis.SliceCmd) ([]any, error) {
	if s.cfg.replicas == 0 {
		return q(s.rdb).Result()
	}
	start := time.Now()
	var cmd *redis.SliceCmd
	var b barrier
	_, _ = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		cmd = q(p)
		b = s.barrier(ctx, p, start)
		return nil
	}) // each command holds its error: the read's first, then the barrier's
	if err := cmd.Err(); err != nil {
		return nil, err
	}
	if err := s.replicated(ctx, b, start); err != nil {
		return nil, err
	}
	return cmd.Val(), nil
}
