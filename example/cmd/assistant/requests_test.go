package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
)

// TestRequestBodies runs the quickstart against a loopback stand-in of
// each provider's API, answered with the recordings, and keeps every
// request body the SDK sent under testdata/requests/PROVIDER (refresh with
// GOA_DISCOVERY_UPDATE=1). The provider conformance tests
// (runtime/provider/internal/conformance) decode those bodies strictly into
// the SDK's request types and check them against the providers' documented
// rules, so the conversation the recordings answer is one each provider
// accepts; this test keeps the files true to what the adapters send.
func TestRequestBodies(t *testing.T) {
	for _, p := range liveProviders {
		t.Run(p, func(t *testing.T) {
			srv := serveRecordings(t, p, &requestLog{})
			env := func(k string) string {
				if k == setups[p].keyVar {
					return "test-key"
				}
				return ""
			}
			var stdout, stderr bytes.Buffer
			if code := runCommand(context.Background(), []string{"-provider", p}, env, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
			}
			if err := srv.check(); err != nil {
				t.Fatal(err)
			}
			for i, body := range srv.requests() {
				golden.JSON(t, filepath.Join("testdata", "requests", p, fmt.Sprintf("%d.json", i+1)), body)
			}
		})
	}
}
