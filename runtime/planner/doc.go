// Package planner has the ready planner of the agent runtime: it turns each
// planning step into one model.Request (the agent's instructions, the run's
// messages, exactly the tools the step advertises and the discovery
// settings) and sends it to any model.Client.
package planner
