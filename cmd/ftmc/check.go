package main

// cmdCheck explores one concrete instance exhaustively.
func cmdCheck(e *env, args []string) int {
	if isTAModel(args) {
		return checkTA(e, args)
	}
	return checkPromela(e, args)
}
