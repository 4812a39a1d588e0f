package redisstore

// The generation watch: how a node answers reads from its cache without a
// Redis round trip, and how stale such an answer may be.
//
// Every change script publishes the generation it made on the registry's
// channel (goa-discovery:{NAME}:changes; a sharded channel on a Redis
// Cluster, so that it lives on the primary of the registry's slot). The
// watch subscribes to it, and sends a PING with a sequence number on the
// subscription every quarter of the staleness bound. Redis answers the
// commands of one connection in order, and a script's message is queued to
// every subscriber before the script's writer gets its answer. So when the
// PONG of a PING sent at time p arrives, every change acknowledged before p
// has been heard: its generation is at most the highest one heard. A read
// that begins at t is answered from the cache when such a p is at most the
// staleness bound before t; otherwise the generation is read from Redis.
//
// A subscription that breaks, or that Redis ends, loses what was published
// meanwhile; the watch subscribes again. Each subscription starts an epoch: the generation is read from Redis once
// the subscription is confirmed, and only PINGs sent after that read count
// for the epoch. The highest generation heard starts again from that read,
// so a generation lost in a failover is not remembered; that read also
// finds whether Redis lost changes (identity.go).

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

type watch struct {
	rdb      redis.UniversalClient
	channel  string
	read     func(context.Context) (uint64, error) // the generation, from Redis
	maxStale time.Duration
	sharded  bool
	now      func() time.Time
	cancel   context.CancelFunc
	ps       *redis.PubSub
	done     chan struct{}

	mu        sync.Mutex
	epoch     uint64
	synced    bool      // the generation was read in this epoch
	known     uint64    // the highest generation heard in this epoch
	confirmed time.Time // every change acknowledged before it is heard
	seq       uint64
	pings     map[string]pingSent
}

type pingSent struct {
	at     time.Time
	epoch  uint64
	synced bool
}

func startWatch(rdb redis.UniversalClient, channel string, read func(context.Context) (uint64, error), maxStale time.Duration, sharded bool) *watch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watch{rdb: rdb, channel: channel, read: read, maxStale: maxStale, sharded: sharded,
		now: time.Now, cancel: cancel, done: make(chan struct{}), pings: make(map[string]pingSent)}
	go w.receive(ctx)
	go w.ping(ctx)
	return w
}

func (w *watch) stop() {
	w.cancel()
	w.mu.Lock()
	if w.ps != nil {
		_ = w.ps.Close() // ends a Receive waiting for the connection
	}
	w.mu.Unlock()
	<-w.done
}

// fresh returns the generation that every change acknowledged at least
// maxStale ago has reached, and whether the watch knows it.
func (w *watch) fresh() (uint64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.synced || w.confirmed.IsZero() || w.now().Sub(w.confirmed) > w.maxStale {
		return 0, false
	}
	return w.known, true
}

// receive subscribes, and subscribes again on a new subscription whenever
// the one it has ends: a connection error, or Redis ending it (a Redis
// Cluster does when the registry's slot moves to another primary, whose
// messages the old subscription would then never get while its PINGs are
// still answered).
func (w *watch) receive(ctx context.Context) {
	defer close(w.done)
	for ctx.Err() == nil {
		var ps *redis.PubSub
		if w.sharded {
			ps = w.rdb.SSubscribe(ctx, w.channel)
		} else {
			ps = w.rdb.Subscribe(ctx, w.channel)
		}
		w.mu.Lock()
		w.ps = ps
		w.mu.Unlock()
		w.listen(ctx, ps)
		w.newEpoch()
		w.mu.Lock()
		w.ps = nil
		w.mu.Unlock()
		_ = ps.Close()
		select {
		case <-ctx.Done():
		case <-time.After(w.maxStale / 4):
		}
	}
}

// listen reads ps until it fails or its subscription ends.
func (w *watch) listen(ctx context.Context, ps *redis.PubSub) {
	for {
		msg, err := ps.Receive(ctx)
		if err != nil || ctx.Err() != nil {
			return
		}
		switch m := msg.(type) {
		case *redis.Subscription:
			switch m.Kind {
			case "subscribe", "ssubscribe":
				go w.sync(ctx, w.newEpoch())
			default:
				return // unsubscribed by Redis
			}
		case *redis.Message:
			if g, err := strconv.ParseUint(m.Payload, 10, 64); err == nil {
				w.heard(g)
			}
		case *redis.Pong:
			w.pong(m.Payload)
		}
	}
}

// newEpoch forgets what the watch knew, and returns the new epoch.
func (w *watch) newEpoch() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.epoch++
	w.synced, w.known, w.confirmed = false, 0, time.Time{}
	clear(w.pings)
	return w.epoch
}

// sync reads the generation once the subscription of epoch is confirmed.
func (w *watch) sync(ctx context.Context, epoch uint64) {
	g, err := w.read(ctx)
	if err != nil {
		return // the next PING or message failing starts a new epoch
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.epoch == epoch {
		w.synced, w.known = true, max(w.known, g)
	}
}

func (w *watch) heard(g uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.known = max(w.known, g)
}

func (w *watch) pong(payload string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, ok := w.pings[payload]
	if !ok {
		return
	}
	delete(w.pings, payload)
	if p.epoch == w.epoch && p.synced && p.at.After(w.confirmed) {
		w.confirmed = p.at
	}
}

func (w *watch) ping(ctx context.Context) {
	t := time.NewTicker(w.maxStale / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.mu.Lock()
		ps := w.ps
		if ps == nil {
			w.mu.Unlock()
			continue
		}
		w.seq++
		payload := strconv.FormatUint(w.seq, 10)
		w.pings[payload] = pingSent{at: w.now(), epoch: w.epoch, synced: w.synced}
		for k, p := range w.pings {
			if w.now().Sub(p.at) > 4*w.maxStale {
				delete(w.pings, k) // its PONG is lost
			}
		}
		w.mu.Unlock()
		_ = ps.Ping(ctx, payload) // a failure shows in receive
	}
}
