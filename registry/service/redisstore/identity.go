package redisstore

// Finding that Redis lost changes it acknowledged: a Redis restarted
// without persistence (or with a persistence that had not synced them), or
// a Sentinel failover to a replica that had not received them. The nodes'
// caches then hold registrations Redis no longer has, and generations
// Redis will make again with other content; a node that went on comparing
// generations would serve its cache without end and refuse the changes
// decided against it.
//
// Two marks tell it:
//
//   - the registry's identity key (id), a random value written once, when
//     the first read finds it absent; a Redis that lost everything has
//     none, and the next read writes another;
//   - the generation: it only grows in a Redis that keeps what it
//     acknowledged, so an answer read after one that gave a higher
//     generation, under the same identity, shows changes lost. The node that
//     finds it writes a new identity, so that the other nodes find it too
//     even where their generations have caught up meanwhile.
//
// Each finding starts a new epoch (service.Store's Epoch); what a
// read returns that found it belongs to the new one.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"
)

// identity is what the store knows of the Redis it reads.
type identity struct {
	mu    sync.Mutex
	id    string          // the identity key as last read; "" before the first read
	high  uint64          // the highest generation read under id
	epoch uint64          // findings so far
	old   map[string]bool // identities left behind, which a read begun before may still return
}

// mark is what a read notes before it begins.
type mark struct{ epoch, high uint64 }

func (s *Store) mark() mark {
	s.ident.mu.Lock()
	defer s.ident.mu.Unlock()
	return mark{s.ident.epoch, s.ident.high}
}

// Epoch implements service.Store: how many times the store found
// that Redis had lost changes it acknowledged.
func (s *Store) Epoch() uint64 {
	s.ident.mu.Lock()
	defer s.ident.mu.Unlock()
	return s.ident.epoch
}

// identityScript: KEYS id; ARGV a new identity. Writes it unless the
// registry has one, and returns the registry's.
var identityScript = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`)

// replaceIdentityScript: KEYS id; ARGV the identity read, a new one.
// Replaces the first with the second, and returns the registry's.
var replaceIdentityScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) end
return redis.call('GET', KEYS[1])
`)

func newIdentity() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// observe notes what a read begun at m found in Redis: its identity key
// (nil: absent) and generation. It writes an identity when Redis has none,
// and a new one when the generation went back under the same identity.
func (s *Store) observe(ctx context.Context, m mark, id any, gen uint64) error {
	cur, _ := id.(string)
	if cur == "" {
		got, err := identityScript.Run(ctx, s.rdb, []string{s.key("id")}, newIdentity()).Text()
		if err != nil {
			return wrap("write the registry's identity", err)
		}
		cur = got
	}
	s.ident.mu.Lock()
	known, back := s.ident.id, m.epoch == s.ident.epoch && cur == s.ident.id && gen < m.high
	switch {
	case known == "":
		s.ident.id, s.ident.high = cur, gen
		s.ident.mu.Unlock()
		return nil
	case s.ident.old[cur]:
		// Read before the identity was replaced: Redis holds the same
		// changes as under the new one.
		s.ident.mu.Unlock()
		return nil
	case cur != known:
		s.foundLoss(cur, gen)
		s.ident.mu.Unlock()
		return nil
	case !back:
		s.ident.high = max(s.ident.high, gen)
		s.ident.mu.Unlock()
		return nil
	}
	s.ident.mu.Unlock()
	next, err := replaceIdentityScript.Run(ctx, s.rdb, []string{s.key("id")}, cur, newIdentity()).Text()
	if err != nil {
		return wrap("replace the registry's identity", err)
	}
	s.ident.mu.Lock()
	defer s.ident.mu.Unlock()
	if s.ident.id == cur {
		s.foundLoss(next, gen)
	}
	return nil
}

// foundLoss starts a new epoch under identity id, leaving the one known
// behind. s.ident.mu is held.
func (s *Store) foundLoss(id string, gen uint64) {
	if s.ident.old == nil {
		s.ident.old = make(map[string]bool)
	}
	s.ident.old[s.ident.id] = true
	s.ident.id, s.ident.high = id, gen
	s.ident.epoch++
}

// noteChange notes the generation a change made: an answer of Redis, as a
// read's is, though it carries no identity.
func (s *Store) noteChange(m mark, gen uint64) {
	s.ident.mu.Lock()
	defer s.ident.mu.Unlock()
	if m.epoch == s.ident.epoch && gen >= m.high {
		s.ident.high = max(s.ident.high, gen)
	}
}

// readGeneration reads the generation and the identity from Redis, and
// notes them.
func (s *Store) readGeneration(ctx context.Context, rdb redis.Cmdable) (uint64, error) {
	m := s.mark()
	vals, err := rdb.MGet(ctx, s.key("gen"), s.key("id")).Result()
	if err != nil {
		return 0, wrap("read the generation", err)
	}
	if len(vals) != 2 {
		return 0, fmt.Errorf("registry store redis: read the generation: answered %v", vals)
	}
	var gen uint64
	if g, ok := vals[0].(string); ok {
		if gen, err = strconv.ParseUint(g, 10, 64); err != nil {
			return 0, fmt.Errorf("registry store redis: generation: %w", err)
		}
	} else if vals[0] != nil {
		return 0, errors.New("registry store redis: generation is not a string")
	}
	if err := s.observe(ctx, m, vals[1], gen); err != nil {
		return 0, err
	}
	return gen, nil
}
