package redisstore

// The layout of a registry's calls in Redis: a call is one hash, call:ID
// (scripts.go), listed in the sorted set callsKey.

// callsKey is the sorted set of a registry's call IDs by last event, for
// listing and forgetting.
const callsKey = "callindex"

// callKey is the key of the hash of callID.
func (s *Store) callKey(callID string) string { return s.prefix + "call:" + callID }
