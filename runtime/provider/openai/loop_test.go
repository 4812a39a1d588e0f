package openai

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// renderings are the ways this adapter renders discovery.
var renderings = []struct {
	name   string
	model  string
	opts   []Option
	native bool
}{
	{"native", nativeModel, nil, true},
	{"emulated", emulatedModel, nil, false},
	{"forced_emulation", nativeModel, []Option{WithEmulation()}, false},
}

// TestDiscoverCallAnswer runs the whole loop on each rendering, compares
// every request body with testdata/ (the first request with the search
// tool, the discovery result, the call of a discovered tool) and checks the
// neutral history the responses decode to.
func TestDiscoverCallAnswer(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			replies := loopReplies(rc.native)
			if rc.name == "forced_emulation" {
				for i := range replies {
					replies[i].Body = replaceModel(replies[i].Body, nativeModel)
				}
			}
			api := newFakeAPI(t, replies...)
			c := api.client(rc.opts...)
			history := runLoop(t, c, rc.model, testCatalog(t), start())
			for i := range 3 {
				checkGolden(t, fmt.Sprintf("%s_step%d", rc.name, i+1), api.body(i))
			}
			want := openaitest.WantHistory()
			if diff := cmp.Diff(want, stripMeta(history)); diff != "" {
				t.Fatalf("history (-want +got):\n%s", diff)
			}
			for i, m := range history {
				_, has := m.Meta[MetaKey]
				if want := rc.native && m.Role == model.RoleAssistant; has != want {
					t.Errorf("message %d (%s): has %s meta = %v, want %v", i, m.Role, MetaKey, has, want)
				}
			}
		})
	}
}

func replaceModel(body, modelID string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		panic(err)
	}
	m["model"], _ = json.Marshal(modelID)
	b, _ := json.Marshal(m)
	return string(b)
}
