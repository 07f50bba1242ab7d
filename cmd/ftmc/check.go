package main

import "fmt"

// cmdCheck explores one concrete instance exhaustively.
func cmdCheck(e *env, args []string) int {
	if isTAModel(args) {
		return checkTA(e, args)
	}
	fmt.Fprintln(e.stderr, "ftmc check: not implemented yet")
	return 2
}
