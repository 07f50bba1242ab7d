package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"ftmc/smt"
)

const verifyUsage = `usage: ftmc verify MODEL.{ta,pml,mcmt,in,cub} [SPEC ... | all] [flags]

Proves properties for every parameter value: threshold automata (.ta) and
ByMC's Parametric Promela (.pml, abstracted to one) with the schema-based
engine, array-based systems (MCMT .mcmt/.in, Cubicle .cub) with backward
reachability. --lang ta|promela|mcmt|mcmt1|cubicle overrides the file
extension; a model on standard input (-) needs it. The flags depend on
the language:

  ftmc verify MODEL.ta -h      flags of the threshold-automata engine
  ftmc verify MODEL.pml -h     flags of the Parametric Promela front end
  ftmc verify MODEL.cub -h     flags of backward reachability
`

// cmdVerify proves properties for every parameter value: threshold automata
// (.ta) and Parametric Promela (.pml) with the schema-based engine, array-based systems (.mcmt, .in, .cub)
// with backward reachability. --lang overrides the file extension.
func cmdVerify(e *env, args []string) int {
	// The engines ask for one SMT solver after another (the schema
	// engine several per specification): the run reuses z3 processes.
	ctx, done := smt.WithPool(e.ctx)
	defer done()
	e = e.within(ctx)
	lang := ""
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			lang = v
		} else if (a == "--lang" || a == "-lang") && i+1 < len(args) {
			lang = args[i+1]
		}
	}
	if lang == "" {
		for _, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			switch strings.ToLower(filepath.Ext(a)) {
			case ".ta", ".eta", ".sk":
				lang = "ta"
			case ".mcmt", ".in":
				lang = "mcmt"
			case ".cub":
				lang = "cubicle"
			case ".pml", ".prm":
				lang = "promela"
			}
			if lang != "" {
				break
			}
		}
	}
	switch lang {
	case "ta":
		return verifyTA(e, args)
	case "mcmt", "mcmt1", "cubicle", "cub":
		return verifyMCMT(e, args)
	case "promela", "pml":
		return verifyPML(e, args)
	}
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" || a == "--h" {
			fmt.Fprint(e.stdout, verifyUsage)
			return 0
		}
	}
	if lang != "" {
		fmt.Fprintf(e.stderr, "ftmc verify: --lang %s: expected ta, promela, mcmt, mcmt1 or cubicle\n", lang)
		return 2
	}
	for _, a := range args {
		if a == "-" {
			// Standard input has no extension, and verify reads several
			// languages: no guess from the text.
			fmt.Fprintln(e.stderr, "ftmc verify: -: a model on standard input needs its language: --lang ta|promela|mcmt|mcmt1|cubicle")
			return 2
		}
	}
	fmt.Fprintln(e.stderr, "ftmc verify: cannot tell the model's language: give a .ta, .pml, .mcmt, .in or .cub file, or --lang ta|promela|mcmt|mcmt1|cubicle")
	return 2
}
