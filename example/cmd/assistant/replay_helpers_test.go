package main

import "testing"

// serveRecordings serves provider's recordings on loopback for the length of
// the test, logging requests to log, points both SDKs at it (they read their
// base URL from the environment) and fails the test if a recording was left
// unused or a request had none.
func serveRecordings(t *testing.T, provider string, log *requestLog) *replayServer {
	t.Helper()
	srv, err := startReplay(provider, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.close(); err != nil {
			t.Error(err)
		}
	})
	t.Setenv("ANTHROPIC_BASE_URL", srv.url)
	t.Setenv("OPENAI_BASE_URL", srv.url+"/v1")
	return srv
}
