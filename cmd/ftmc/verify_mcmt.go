package main

import "fmt"

// verifyMCMT verifies an array-based system (MCMT or Cubicle input) for any
// number of processes.
func verifyMCMT(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc verify: array-based systems are not supported yet")
	return 2
}
