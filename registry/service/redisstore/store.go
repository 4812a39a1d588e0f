package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// Store is the Redis store of one registry; see the package comment. It is
// safe for concurrent use.
type Store struct {
	rdb     redis.UniversalClient
	scripts redis.Scripter // what the scripts run on: rdb's autopipeliner, or rdb
	own     bool           // the store opened rdb and closes it
	prefix  string
	cfg     config
	publish string // the command the change scripts publish with
	watch   *watch // nil: every read asks Redis

	ident     identity     // the Redis read, and whether it lost changes (identity.go)
	durable   durable      // MetricStoreDurable (durability.go)
	connected atomic.Int64 // replicas connected to the primary, as INFO last said (replicas.go)

	// decoded caches the registrations read, by toolset, with the bytes
	// they were decoded from: a read decodes only those whose bytes
	// changed. The Registrations returned share it, and are only read.
	mu      sync.Mutex
	decoded map[string]decodedRegistration
	// durabilityStop ends the re-checks of WatchDurability; guarded by mu.
	durabilityStop chan struct{}
}

type decodedRegistration struct {
	data string
	reg  registry.Registration
}

var _ store.Store = (*Store)(nil)

// Traits implements service.Store: the nodes of a registry share the
// store, and it keeps providers' leases.
func (s *Store) Traits() store.StoreTraits {
	return store.StoreTraits{Shared: true, Leases: true}
}

// New returns the store of the registry called name in the Redis rdb
// reaches: a redis.Client, a failover client of a Sentinel-managed
// primary (redis.NewFailoverClient), or a redis.ClusterClient of a sharded
// Redis Cluster, where the registry's keys share one hash slot. Close does
// not close rdb.
func New(rdb redis.UniversalClient, name string, opts ...Option) (*Store, error) {
	if name == "" || strings.ContainsAny(name, "{}") {
		return nil, fmt.Errorf("registry store redis: registry name %q is empty or has braces", name)
	}
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	_, cluster := rdb.(*redis.ClusterClient)
	if cluster && cfg.replicas > 0 {
		return nil, fmt.Errorf("registry store redis: WithReplicas needs a client of one primary, not a cluster client")
	}
	s := &Store{rdb: rdb, scripts: rdb, prefix: "goa-discovery:{" + name + "}:", cfg: cfg, publish: "PUBLISH", decoded: make(map[string]decodedRegistration)}
	if cfg.replicas == 0 {
		// The scripts of concurrent operations go out together while Redis
		// answers earlier ones: one round trip, one turn of Redis's event
		// loop and, with appendfsync always, one sync for all of them. Each
		// script is still one atomic step with its own answer. With
		// replicas a script is followed by WAIT on its own connection
		// (replicas.go), which an autopipeliner does not keep.
		if ap, err := rdb.AutoPipeline(); err == nil {
			s.scripts = ap
		}
	}
	if cluster {
		s.publish = "SPUBLISH" // on the primary of the registry's slot
	}
	if cfg.maxStale > 0 {
		s.watch = startWatch(rdb, s.key("changes"), func(ctx context.Context) (uint64, error) { return s.readGeneration(ctx, rdb) }, cfg.maxStale, cluster)
	}
	return s, nil
}

// Close stops the store's generation watch and durability re-checks, and
// closes the connection Open made.
func (s *Store) Close() error {
	s.stopDurabilityWatch()
	if s.watch != nil {
		s.watch.stop()
		s.watch = nil
	}
	if s.own {
		return s.rdb.Close()
	}
	return nil
}

func (s *Store) key(k string) string { return s.prefix + k }

// Generation implements service.Store: from the generation watch
// without a round trip while it is fresh (see WithMaxStaleness), from
// Redis otherwise, with the registry's identity (identity.go).
func (s *Store) Generation(ctx context.Context) (uint64, error) {
	if s.watch != nil {
		if g, ok := s.watch.fresh(); ok {
			return g, nil
		}
	}
	return s.readGeneration(ctx, s.rdb)
}

// Registrations implements service.Store: the generation and the
// registrations are read in one script.
func (s *Store) Registrations(ctx context.Context) (uint64, []registry.Registration, error) {
	m := s.mark()
	res, err := s.eval(ctx, registrationsScript, []string{s.key("gen"), s.key("regs"), s.key("id")}).Slice()
	if err != nil {
		return 0, nil, wrap("read the registrations", err)
	}
	if len(res) != 2 && len(res) != 3 {
		return 0, nil, fmt.Errorf("registry store redis: read the registrations: script answered %v", res)
	}
	var g uint64
	if res[0] != nil {
		gs, _ := res[0].(string)
		if g, err = strconv.ParseUint(gs, 10, 64); err != nil {
			return 0, nil, fmt.Errorf("registry store redis: generation: %w", err)
		}
	}
	flat, _ := res[1].([]any)
	if len(flat)%2 != 0 {
		return 0, nil, fmt.Errorf("registry store redis: read the registrations: script answered %d fields", len(flat))
	}
	raw := make(map[string]string, len(flat)/2)
	for i := 0; i < len(flat); i += 2 {
		k, _ := flat[i].(string)
		v, _ := flat[i+1].(string)
		raw[k] = v
	}
	out, err := s.decode(raw)
	if err != nil {
		return 0, nil, err
	}
	var id any // a Lua table ends at its first nil: no third element is no identity
	if len(res) == 3 {
		id = res[2]
	}
	if err := s.observe(ctx, m, id, g); err != nil {
		return 0, nil, err
	}
	return g, out, nil
}

// decode returns the registrations of raw, from toolset to JSON, decoding
// those not decoded before, and forgets the decoded ones not in raw.
func (s *Store) decode(raw map[string]string) ([]registry.Registration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]registry.Registration, 0, len(raw))
	for name, data := range raw {
		d, ok := s.decoded[name]
		if !ok || d.data != data {
			d = decodedRegistration{data: data}
			if err := strictjson.Decode([]byte(data), &d.reg); err != nil {
				return nil, fmt.Errorf("registry store redis: registration of %q: %w", name, err)
			}
			s.decoded[name] = d
		}
		out = append(out, d.reg)
	}
	for name := range s.decoded {
		if _, ok := raw[name]; !ok {
			delete(s.decoded, name)
		}
	}
	return out, nil
}

// PutRegistration implements service.Store.
func (s *Store) PutRegistration(ctx context.Context, reg *registry.Registration, prev registry.Token) (uint64, error) {
	data, err := json.Marshal(reg)
	if err != nil {
		return 0, fmt.Errorf("registry store redis: encode registration: %w", err)
	}
	name := reg.Toolset.Name
	m := s.mark()
	res, err := s.eval(ctx, putScript, s.regKeys(), name, string(prev), string(reg.Token), data, s.publish).Slice()
	if err != nil {
		return 0, wrap(fmt.Sprintf("publish toolset %q", name), err)
	}
	return s.changed(m, res, name, prev)
}

// DeleteRegistration implements service.Store.
func (s *Store) DeleteRegistration(ctx context.Context, toolset string, token registry.Token) (uint64, error) {
	m := s.mark()
	res, err := s.eval(ctx, deleteScript, s.regKeys(), toolset, string(token), s.publish).Slice()
	if err != nil {
		return 0, wrap(fmt.Sprintf("withdraw toolset %q", toolset), err)
	}
	return s.changed(m, res, toolset, token)
}

func (s *Store) regKeys() []string {
	return []string{s.key("tokens"), s.key("regs"), s.key("gen"), s.key("leases"), s.key("changes")}
}

// changed reads the answer of putScript or deleteScript, to a change
// begun at m.
func (s *Store) changed(m mark, res []any, toolset string, want registry.Token) (uint64, error) {
	if len(res) != 2 {
		return 0, fmt.Errorf("registry store redis: script answered %v", res)
	}
	if ok, _ := res[0].(int64); ok != 1 {
		return 0, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, toolset, res[1], want)
	}
	gen, ok := res[1].(int64)
	if !ok || gen <= 0 {
		return 0, fmt.Errorf("registry store redis: script answered generation %v", res[1])
	}
	s.noteChange(m, uint64(gen))
	return uint64(gen), nil
}

// score is the sorted-set score of a call's last event: Unix milliseconds,
// truncated, so that a call forgotten "before the cutoff" never had its
// last event at or after it.
func score(t time.Time) int64 { return t.UnixMilli() }

// Admit implements service.Store.
func (s *Store) Admit(ctx context.Context, rec *store.CallRecord) (*store.CallRecord, bool, error) {
	stored := rec.Clone()
	stored.Result = nil
	data, err := json.Marshal(stored)
	if err != nil {
		return nil, false, fmt.Errorf("registry store redis: encode call %q: %w", rec.CallID, err)
	}
	keys := []string{s.callKey(rec.CallID), s.key("tokens"), s.key(callsKey)}
	res, err := s.eval(ctx, admitScript, keys, rec.Tool.Toolset(), string(rec.Token), data, score(rec.AdmittedAt), rec.CallID).Slice()
	if err != nil {
		return nil, false, wrap(fmt.Sprintf("admit call %q", rec.CallID), err)
	}
	switch code, _ := res[0].(int64); {
	case code == 1:
		return stored, true, nil
	case code == 0 && len(res) == 3:
		out, err := decodeCall(rec.CallID, res[1], res[2])
		return out, false, err
	case code == 2 && len(res) == 2:
		return nil, false, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, rec.Tool.Toolset(), res[1], rec.Token)
	}
	return nil, false, fmt.Errorf("registry store redis: admit call %q: script answered %v", rec.CallID, res)
}

// Complete implements service.Store.
func (s *Store) Complete(ctx context.Context, callID string, result *registry.CallResult) (*store.CallRecord, error) {
	res, err := s.complete(ctx, callID, "", "1", result)
	if err != nil {
		return nil, err
	}
	return decodeCall(callID, res[1], res[2])
}

// complete records result, fenced by the hand-over of fence ("": not
// fenced), and returns completeScript's answer, {1, record, result} or,
// unless answer is "1", {3} for result recorded now.
func (s *Store) complete(ctx context.Context, callID, fence, answer string, result *registry.CallResult) ([]any, error) {
	data, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("registry store redis: encode result of call %q: %w", callID, err)
	}
	keys := []string{s.callKey(callID), s.key(callsKey)}
	res, err := s.eval(ctx, completeScript, keys, data, score(result.CompletedAt), callID, fence, answer).Slice()
	if err != nil {
		return nil, wrap(fmt.Sprintf("record result of call %q", callID), err)
	}
	switch code, _ := res[0].(int64); {
	case code == 1 && len(res) == 3, code == 3 && answer != "1":
		return res, nil
	case code == 2:
		return nil, fmt.Errorf("%w: call %q was not handed over under claim %s", store.ErrClaimLost, callID, fence)
	case code == 0:
		return nil, fmt.Errorf("%w: call %q", store.ErrNotAdmitted, callID)
	}
	return nil, fmt.Errorf("registry store redis: record result of call %q: script answered %v", callID, res)
}

// Call implements service.Store: the admission and the result are read
// with one command.
func (s *Store) Call(ctx context.Context, callID string) (*store.CallRecord, error) {
	vals, err := s.read(ctx, func(p redis.Cmdable) *redis.SliceCmd {
		return p.HMGet(ctx, s.callKey(callID), "rec", "res")
	})
	if err != nil {
		return nil, wrap(fmt.Sprintf("read call %q", callID), err)
	}
	if vals[0] == nil {
		return nil, nil
	}
	res := vals[1]
	if res == nil {
		res = ""
	}
	return decodeCall(callID, vals[0], res)
}

// decodeCall decodes a call's record and result ("": none).
func decodeCall(callID string, rec, res any) (*store.CallRecord, error) {
	r, _ := rec.(string)
	var out store.CallRecord
	if err := strictjson.Decode([]byte(r), &out); err != nil {
		return nil, fmt.Errorf("registry store redis: record of call %q: %w", callID, err)
	}
	if d, _ := res.(string); d != "" {
		out.Result = new(registry.CallResult)
		if err := strictjson.Decode([]byte(d), out.Result); err != nil {
			return nil, fmt.Errorf("registry store redis: result of call %q: %w", callID, err)
		}
	}
	return &out, nil
}

// forgetBatch bounds the calls one forget script removes, so that Redis is
// never held long by one.
const forgetBatch = 256

// Forget implements service.Store. A call whose last event moved past the
// cutoff meanwhile (its result was recorded) is kept: the script checks
// again.
func (s *Store) Forget(ctx context.Context, cutoff time.Time, keep func(string) bool) (int, error) {
	ids, err := s.rdb.ZRangeByScore(ctx, s.key(callsKey), &redis.ZRangeBy{Min: "-inf", Max: "(" + strconv.FormatInt(score(cutoff), 10)}).Result()
	if err != nil {
		return 0, wrap("list expired calls", err)
	}
	var batch []any
	n := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		args := append([]any{s.prefix, score(cutoff)}, batch...)
		m, err := s.eval(ctx, forgetScript, []string{s.key(callsKey)}, args...).Int()
		if err != nil {
			return wrap("forget expired calls", err)
		}
		n += m
		batch = batch[:0]
		return nil
	}
	for _, id := range ids {
		if keep(id) {
			continue
		}
		if batch = append(batch, id); len(batch) == forgetBatch {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	return n, flush()
}

// wrap classifies a Redis error: out of memory is service.ErrStorageFull;
// a connection that failed, or a Redis that is loading its data or cannot
// take writes, is service.ErrUnavailable.
func wrap(what string, err error) error {
	return fmt.Errorf("registry store redis: %s: %w", what, classify(err))
}

func classify(err error) error {
	var rerr redis.Error
	switch {
	case redis.HasErrorPrefix(err, "OOM"):
		return fmt.Errorf("%w: %w", store.ErrStorageFull, err)
	case errors.As(err, &rerr) && !isUnavailableReply(err):
		return err
	}
	return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
}

// isUnavailableReply reports replies of a Redis that cannot serve now.
func isUnavailableReply(err error) bool {
	for _, p := range []string{"LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "READONLY", "CLUSTERDOWN", "MISCONF"} {
		if redis.HasErrorPrefix(err, p) {
			return true
		}
	}
	return false
}

// ListCalls implements service.Store: it reads the calls by their
// last event, the latest first, a batch at a time, until limit matched and
// one more is known to.
func (s *Store) ListCalls(ctx context.Context, pending bool, limit int) ([]*store.CallRecord, bool, error) {
	var out []*store.CallRecord
	for start := int64(0); ; start += forgetBatch {
		ids, err := s.rdb.ZRevRange(ctx, s.key(callsKey), start, start+forgetBatch-1).Result()
		if err != nil {
			return nil, false, wrap("list calls", err)
		}
		for _, id := range ids {
			rec, err := s.Call(ctx, id)
			if err != nil {
				return nil, false, err
			}
			if rec == nil || (pending && rec.Result != nil) {
				continue // forgotten meanwhile, or done
			}
			if len(out) == limit {
				recs, _ := store.SortCalls(out, limit)
				return recs, true, nil
			}
			out = append(out, rec)
		}
		if len(ids) < forgetBatch {
			recs, _ := store.SortCalls(out, limit)
			return recs, false, nil
		}
	}
}
