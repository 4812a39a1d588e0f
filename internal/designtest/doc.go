// Package designtest runs goa-discovery designs in a clean eval context for
// tests: Goa's roots and the goa-discovery root are recreated and registered,
// the design runs as top-level DSL, and eval.RunDSL executes, validates and
// finalizes it.
package designtest
