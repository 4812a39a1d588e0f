// Command walk is the worker and the starter of the walk of
// docs/temporal.md: an agent, the bookkeeper, whose planner is a scripted
// model (it stands for an LLM; no API key) making three steps of tool
// calls on the books toolset, one of which, books.reconcile, works for
// five seconds: time to kill its worker with SIGKILL. Every attempt at a
// call and every call's result are written to a ledger file by call
// identity (run, step, call id), and the executor deduplicates by that
// identity, so "every call once" is checked on the ledger:
//
//	walk worker --ledger FILE              run a worker until SIGINT or SIGTERM
//	walk run --id RUN                      run the bookkeeper, wait, print its answer
//	walk wait --ledger FILE --tool TOOL    wait until a call of TOOL has started
//	walk check --id RUN --ledger FILE [--killed TOOL]
//	                                       check the run's calls on the ledger
//
// It needs a Temporal server (cmd/devserver) and a Unix system (the
// ledger is locked with flock).
package main
