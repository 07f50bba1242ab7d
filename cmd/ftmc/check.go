package main

import "fmt"

// cmdCheck explores one concrete instance exhaustively.
func cmdCheck(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "ftmc check: not implemented yet")
	return 2
}
