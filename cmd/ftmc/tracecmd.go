package main

import "fmt"

// cmdTrace renders a stored counterexample.
func cmdTrace(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc trace: not implemented yet")
	return 2
}
