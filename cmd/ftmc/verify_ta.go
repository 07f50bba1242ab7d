package main

import "fmt"

// verifyTA verifies a threshold automaton for all parameter values.
func verifyTA(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc verify: threshold automata are not supported yet")
	return 2
}
