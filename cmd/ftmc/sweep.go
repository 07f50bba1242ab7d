package main

import "fmt"

// cmdSweep runs check over the cross product of macro values.
func cmdSweep(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc sweep: not implemented yet")
	return 2
}
