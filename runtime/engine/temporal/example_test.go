package temporal_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// registerApplication stands for the application's registrations: its
// toolsets and agents, the same in every process.
func registerApplication(*runtime.Runtime) error { return nil }

// An application runs its agents on Temporal: a client, an engine with the
// retry policies of its activities, a runtime recording in it, and a
// worker with the same registrations. Runs then start and continue as on
// the in-memory engine.
func Example() {
	c, err := client.Dial(client.Options{HostPort: client.DefaultHostPort})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	retry := &sdktemporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 5}
	engine := temporal.New(c, temporal.Options{
		TaskQueue: "agents",
		Plan:      workflow.ActivityOptions{StartToCloseTimeout: 2 * time.Minute, RetryPolicy: retry},
		Call:      workflow.ActivityOptions{StartToCloseTimeout: 30 * time.Second, RetryPolicy: retry},
	})
	rt := runtime.New(runtime.WithEngine(engine))
	if err := registerApplication(rt); err != nil {
		log.Fatal(err)
	}

	w := worker.New(c, "agents", worker.Options{})
	engine.Register(w, rt)
	if err := w.Start(); err != nil {
		log.Fatal(err)
	}
	defer w.Stop()

	out, err := rt.Client("assistant").Run(context.Background(), []model.Message{model.UserMessage("Find the overdue invoices")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Final.Text())
}
