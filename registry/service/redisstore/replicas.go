package redisstore

// Replicated acknowledgements (WithReplicas). Redis replicates to its
// replicas asynchronously: a primary answers a write before any replica
// has it, so a failover that promotes a replica loses the writes it had
// not received, acknowledged or not. WAIT n blocks the connection until n
// replicas confirm every write the connection made; the store sends it in
// the same pipeline as the script, after an INCR of the registry's barrier
// key, so that the WAIT covers the script's writes and, for a script that
// wrote nothing or a read, everything the primary had executed before,
// which includes whatever the script or the read saw. It costs no round
// trip more, only the replicas' delay.
//
// What WAIT does not give: a replica confirms it received a write, not
// that it synced it to its disk; a failover that promotes a replica
// without the write (one not among the n, when the primary has more)
// loses it; and a write whose WAIT timed out may still be on the primary
// (and be read) until a failover drops it. The store reports such a write
// as service.ErrUnavailable, and an acknowledgement is only ever given
// for a state that n replicas confirmed.

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// eval runs a script, waiting for the replicas when the store has some,
// and returns the script's command (its answer or its error).
func (s *Store) eval(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.cfg.replicas == 0 {
		return sc.Run(ctx, s.scripts, keys, args...)
	}
	for loaded := false; ; loaded = true {
		var ev *redis.Cmd
		var wait *redis.IntCmd
		_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			ev = sc.EvalSha(ctx, p, keys, args...)
			wait = s.barrier(ctx, p)
			return nil
		})
		if err != nil && redis.HasErrorPrefix(ev.Err(), "NOSCRIPT") && !loaded {
			// A primary promoted since, or restarted, has not loaded it.
			if err := sc.Load(ctx, s.rdb).Err(); err != nil {
				ev.SetErr(err)
				return ev
			}
			continue
		}
		if ev.Err() == nil {
			if err := s.replicated(wait); err != nil {
				ev.SetErr(err)
			}
		}
		return ev
	}
}

// barrier queues, after the commands of p, the INCR of the barrier key
// and the WAIT for the replicas.
func (s *Store) barrier(ctx context.Context, p redis.Pipeliner) *redis.IntCmd {
	p.Incr(ctx, s.key("barrier"))
	cmd := redis.NewIntCmd(ctx, "wait", s.cfg.replicas, s.cfg.replicaTimeout.Milliseconds())
	_ = p.Process(ctx, cmd)
	return cmd
}

// replicated is the error of a WAIT that fewer replicas than the store
// needs confirmed: the state may be on the primary only.
func (s *Store) replicated(wait *redis.IntCmd) error {
	n, err := wait.Result()
	if err != nil {
		return err
	}
	if int(n) < s.cfg.replicas {
		return fmt.Errorf("%w: %d of %d replicas confirmed within %v", errNotReplicated, n, s.cfg.replicas, s.cfg.replicaTimeout)
	}
	return nil
}

// errNotReplicated: WAIT timed out; classify makes it
// service.ErrUnavailable.
var errNotReplicated = fmt.Errorf("not replicated")

// read runs the command that q queues, followed by the replicas' barrier
// when the store has replicas.
func (s *Store) read(ctx context.Context, q func(redis.Cmdable) *redis.SliceCmd) ([]any, error) {
	if s.cfg.replicas == 0 {
		return q(s.rdb).Result()
	}
	var cmd *redis.SliceCmd
	var wait *redis.IntCmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		cmd = q(p)
		wait = s.barrier(ctx, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.replicated(wait); err != nil {
		return nil, err
	}
	return cmd.Val(), nil
}
