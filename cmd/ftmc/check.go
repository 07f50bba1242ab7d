package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"ftmc/trace"
)

// cmdCheck explores one concrete instance exhaustively.
func cmdCheck(e *env, args []string) int {
	if isTAModel(args) {
		return checkTA(e, args)
	}
	if model, ok := arrayModel(args); ok {
		// The instances of an array-based system are checked by verify
		// --bounded K: the number of processes is not in the model.
		fmt.Fprintf(e.stderr, "ftmc check: %s is an MCMT or Cubicle model, which ftmc check does not read (it reads Promela and .ta):\n"+
			"'ftmc verify %s --bounded K' checks its instance with K processes, 'ftmc verify %s' proves it for every number of processes\n",
			model, model, model)
		return trace.ExitUsage
	}
	return checkPromela(e, args)
}

// arrayModel finds an array-based model among the arguments of check: a
// .mcmt, .in or .cub file, or a model given with --lang mcmt, mcmt1 or
// cubicle. It returns the model as verify's command line names it.
func arrayModel(args []string) (string, bool) {
	for i, a := range args {
		lang, ok := strings.CutPrefix(a, "--lang=")
		if !ok && (a == "--lang" || a == "-lang") && i+1 < len(args) {
			lang = args[i+1]
		}
		switch lang {
		case "mcmt", "mcmt1", "cubicle", "cub":
			return "--lang " + lang + " MODEL", true
		}
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		switch strings.ToLower(filepath.Ext(a)) {
		case ".mcmt", ".in", ".cub":
			return a, true
		}
	}
	return "", false
}
