// Package cliflags holds what the project's commands share about parsing
// their command lines: flags accepted before and after positional
// arguments, as the go command accepts them.
package cliflags
