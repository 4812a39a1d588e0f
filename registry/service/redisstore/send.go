package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/goa-discovery/goa-discovery/registry/service/store"
)

// AdmitAndHandOver implements service.Store in one script
// (admitSendScript).
func (s *Store) AdmitAndHandOver(ctx context.Context, rec *store.CallRecord, owner string, ttl time.Duration) (*store.CallRecord, bool, uint64, error) {
	stored := rec.Clone()
	stored.Result = nil
	data, err := json.Marshal(stored)
	if err != nil {
		return nil, false, 0, fmt.Errorf("registry store redis: encode call %q: %w", rec.CallID, err)
	}
	id := rec.CallID
	keys := []string{s.callKey(id), s.key("tokens"), s.key(callsKey), s.key("fence")}
	res, err := s.eval(ctx, admitSendScript, keys, rec.Tool.Toolset(), string(rec.Token), data, score(rec.AdmittedAt), id, owner, ttl.Milliseconds()).Slice()
	if err != nil {
		return nil, false, 0, wrap(fmt.Sprintf("admit call %q", id), err)
	}
	switch code, _ := res[0].(int64); {
	case code == 1 && len(res) == 2:
		fence, _ := res[1].(int64)
		return stored, true, uint64(fence), nil
	case code == 0 && len(res) == 3:
		out, err := decodeCall(id, res[1], res[2])
		return out, false, 0, err
	case code == 2 && len(res) == 2:
		return nil, false, 0, fmt.Errorf("%w: toolset %q has token %q, not %q", store.ErrStale, rec.Tool.Toolset(), res[1], rec.Token)
	}
	return nil, false, 0, fmt.Errorf("registry store redis: admit call %q: script answered %v", id, res)
}

// ReturnUnsent implements service.Store.
func (s *Store) ReturnUnsent(ctx context.Context, callID, owner string) error {
	if err := s.eval(ctx, returnUnsentScript, []string{s.callKey(callID)}, owner).Err(); err != nil {
		return wrap(fmt.Sprintf("return call %q", callID), err)
	}
	return nil
}
