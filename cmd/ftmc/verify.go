package main

import "fmt"

// cmdVerify proves properties for every parameter value.
func cmdVerify(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc verify: not implemented yet")
	return 2
}
