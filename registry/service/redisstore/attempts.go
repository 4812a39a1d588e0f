package redisstore

// The attempts of calls (service.Store's Claim to Attempt): a call's hash, call:ID,
// holds with its record and result the claim of the node forwarding it,
// "FENCE DEADLINE OWNER", current until DEADLINE on Redis's clock unless
// renewed, and sent, the FENCE of the claim the call was handed to its
// provider under; fence is the counter fences come from, which only
// grows. Every step is one script (scripts.go), so that a fence is
// checked and acted on at once.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/registry/service/store"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// attemptStates are the states the scripts name.
var attemptStates = map[any]store.AttemptState{
	"free":    store.AttemptFree,
	"claimed": store.AttemptClaimed,
	"lost":    store.AttemptLost,
	"done":    store.AttemptDone,
}

// Claim implements service.Store.
func (s *Store) Claim(ctx context.Context, callID, owner string, ttl time.Duration) (uint64, store.AttemptState, error) {
	res, err := s.eval(ctx, claimScript, []string{s.callKey(callID), s.key("fence")}, owner, ttl.Milliseconds()).Slice()
	if err != nil {
		return 0, 0, wrap(fmt.Sprintf("claim call %q", callID), err)
	}
	if fence, _ := res[0].(int64); fence > 0 {
		return uint64(fence), store.AttemptClaimed, nil
	}
	if len(res) == 2 {
		if state, ok := attemptStates[res[1]]; ok {
			return 0, state, nil
		}
	}
	return 0, 0, fmt.Errorf("registry store redis: claim call %q: script answered %v", callID, res)
}

// Renew implements service.Store.
func (s *Store) Renew(ctx context.Context, callID string, fence uint64, ttl time.Duration) (bool, error) {
	n, err := s.eval(ctx, renewScript, []string{s.callKey(callID)}, fence, ttl.Milliseconds()).Int()
	if err != nil {
		return false, wrap(fmt.Sprintf("renew claim of call %q", callID), err)
	}
	return n == 1, nil
}

// HandOver implements service.Store.
func (s *Store) HandOver(ctx context.Context, callID string, fence uint64) error {
	n, err := s.eval(ctx, handOverScript, []string{s.callKey(callID)}, fence).Int()
	if err != nil {
		return wrap(fmt.Sprintf("hand over call %q", callID), err)
	}
	if n != 1 {
		return fmt.Errorf("%w: claim %d of call %q is not current, or the call was handed over or has a result", store.ErrClaimLost, fence, callID)
	}
	return nil
}

// CompleteHandedOver implements service.Store: the result recorded
// now is not read back.
func (s *Store) CompleteHandedOver(ctx context.Context, callID string, fence uint64, res *registry.CallResult) (*registry.CallResult, error) {
	ans, err := s.complete(ctx, callID, strconv.FormatUint(fence, 10), "", res)
	if err != nil {
		return nil, err
	}
	if code, _ := ans[0].(int64); code == 3 {
		return res, nil
	}
	earlier, _ := ans[2].(string)
	out := new(registry.CallResult)
	if err := strictjson.Decode([]byte(earlier), out); err != nil {
		return nil, fmt.Errorf("registry store redis: result of call %q: %w", callID, err)
	}
	return out, nil
}

// Return implements service.Store.
func (s *Store) Return(ctx context.Context, callID string, fence uint64) error {
	return s.end(ctx, callID, fence, "0", "return call %q")
}

// Release implements service.Store.
func (s *Store) Release(ctx context.Context, callID string, fence uint64) error {
	return s.end(ctx, callID, fence, "1", "release claim of call %q")
}

func (s *Store) end(ctx context.Context, callID string, fence uint64, claimOnly, what string) error {
	if err := s.eval(ctx, returnScript, []string{s.callKey(callID)}, fence, claimOnly).Err(); err != nil {
		return wrap(fmt.Sprintf(what, callID), err)
	}
	return nil
}

// Attempt implements service.Store: one script reads the call's
// hash and Redis's clock, which says whether its claim is current. It
// does not wait for the replicas: the read of the record that follows a
// state other than claimed does (service.Service.await).
func (s *Store) Attempt(ctx context.Context, callID string) (store.AttemptState, error) {
	res, err := attemptScript.Run(ctx, s.rdb, []string{s.callKey(callID)}).Result()
	if err != nil {
		return 0, wrap(fmt.Sprintf("read the attempt of call %q", callID), err)
	}
	state, ok := attemptStates[res]
	if !ok {
		return 0, fmt.Errorf("registry store redis: read the attempt of call %q: script answered %v", callID, res)
	}
	return state, nil
}
