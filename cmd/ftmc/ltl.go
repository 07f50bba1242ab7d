package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"ftmc/explore"
	"ftmc/internal/ident"
	"ftmc/ltl"
	"ftmc/ltl/pml"
	"ftmc/promela"
	"ftmc/promela/compile"
	"ftmc/state"
	"ftmc/trace"
)

// ltlFlags are the options of ftmc check for LTL properties of Promela
// models.
type ltlFlags struct {
	name        string
	formula     string
	fairness    string
	nonProgress bool
	assume      names
}

func (f *ltlFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.name, "ltl", "", "check only the ltl block (or never claim) `NAME` (default: every ltl block and never claim, one verdict each, and safety)")
	fs.Func("ltl-formula", "check the LTL `FORMULA` (Spin's syntax; propositions are the model's expressions)", func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("expected an LTL formula")
		}
		if err := formulaChars(v); err != nil {
			return err
		}
		f.formula = v
		return nil
	})
	fs.StringVar(&f.fairness, "fairness", "", "`weak`: only runs that are weakly fair to every process count (Spin's -f); none: all runs")
	fs.BoolVar(&f.nonProgress, "non-progress", false, "look for cycles that pass no progress label (Spin's -l)")
	fs.Var(&f.assume, "assume", "check each property φ as `NAME` -> φ, for an ltl block NAME such as ByMC's fairness (repeatable)")
}

// given reports whether an LTL flag was on the command line.
func (f *ltlFlags) given() bool {
	return f.name != "" || f.formula != "" || f.fairness != "" || f.nonProgress || len(f.assume) > 0
}

// names is a repeatable flag of names, also comma-separated.
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }

func (n *names) Set(s string) error {
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			if !ident.Valid(x) {
				return fmt.Errorf("%q is not a name", x)
			}
			*n = append(*n, x)
		}
	}
	return nil
}

// wantsLTL reports whether ftmc check should check LTL properties of prog:
// an LTL flag was given, or the model has ltl blocks or a never claim (and
// the compiled model can evaluate their propositions; if it cannot, the
// safety search runs alone and says so).
func (c *pmlCheck) wantsLTL(prog *promela.Program, m *compile.Model) bool {
	if c.ltl.given() {
		return true
	}
	_, ok := any(m).(pml.Model)
	return ok && len(prog.LTL)+len(prog.Nevers) > 0
}

// formulaChars refuses the characters that no LTL formula and no Promela
// expression has: braces, semicolons and a preprocessor's #. The formula
// is read as an ltl block appended to the model, and with them it could
// close that block and add declarations (a process, another property) to
// the model it is checked on.
func formulaChars(v string) error {
	line, col := 1, 1
	for _, r := range v {
		switch r {
		case '{', '}', ';', '#':
			return fmt.Errorf("--ltl-formula:%d:%d: expected an LTL formula, found '%c', which no formula has", line, col, r)
		case '\n':
			line, col = line+1, 0
		}
		col++
	}
	return nil
}

// formulaName is the property name of --ltl-formula.
const formulaName = "formula"

// checkLTL checks the LTL properties of a Promela model (and, when no LTL
// flag chose them, its safety too), prints the report and returns the
// exit code.
func checkLTL(e *env, c *pmlCheck, prog *promela.Program, m *compile.Model) int {
	f := &c.ltl
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "ftmc check: "+format+"\n", args...)
		return trace.ExitUsage
	}
	var fair bool
	switch f.fairness {
	case "", "none":
	case "weak":
		fair = true
	default:
		return fail("--fairness %s: expected weak or none", f.fairness)
	}
	if f.nonProgress && (f.name != "" || f.formula != "" || len(f.assume) > 0) {
		return fail("--non-progress excludes --ltl, --ltl-formula and --assume")
	}
	if f.name != "" && f.formula != "" {
		return fail("--ltl and --ltl-formula exclude each other")
	}
	so, err := c.opts.searchOptions()
	if err != nil {
		return fail("%v", err)
	}
	name := f.name
	if f.formula != "" {
		var code int
		prog, m, name, code = c.loadWithFormula(e, f.formula)
		if m == nil {
			return code
		}
	}
	pm, ok := any(m).(pml.Model)
	if !ok {
		return fail("%s: the Promela compiler cannot evaluate propositions yet, so LTL properties cannot be checked", c.name)
	}

	rep := &trace.Report{Model: c.name, Defines: c.defines.Map(), Engine: "nested dfs (bfs for safety properties)"}
	if len(c.params) > 0 {
		rep.Params = map[string]int64(c.params)
	}
	for _, w := range prog.Warnings {
		rep.Warnings = append(rep.Warnings, warningText(w))
	}
	if m.ByMC() {
		// ByMC's runs: pml.CheckProperty keeps the infinite runs where
		// every process moves infinitely often.
		fair = true
		rep.Engine += ", ByMC's semantics: only infinite runs, where every process moves infinitely often (weak fairness)"
		if init := m.Initialisation(); init != "" {
			rep.Engine += fmt.Sprintf("; %d initial states, where %s", m.InitialStates(), init)
		}
	} else if fair {
		rep.Engine += ", weak fairness"
	}
	if fn := pml.FairnessNames(prog); len(f.assume) == 0 && !f.nonProgress && len(fn) > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("the model has fairness constraints, which ByMC assumes for its other properties; say --assume %s to do the same", strings.Join(fn, ",")))
	}
	// The cycle search runs on several workers (ltl.Options.Workers)
	// only when -j asks for them: CNDFS's counterexample is the one the
	// workers' race finds first, where the nested search on one worker
	// reports the same run every time. (On weak-completeness.pml's 7.3M
	// product states two workers take 9 s, one 17 s.)
	ltlWorkers := 1
	if flagGiven(c.opts.flags, "j") {
		ltlWorkers = so.Workers
	}
	if ltlWorkers > 1 && so.MaxDepth <= 0 {
		rep.Engine = fmt.Sprintf("nested dfs, CNDFS on %d workers where no partial-order reduction applies (bfs for safety properties)", ltlWorkers)
	}
	if c.opts.bfs || c.opts.dfs {
		rep.Warnings = append(rep.Warnings, "--bfs/--dfs: an LTL property is checked by nested depth-first search, a safety property breadth-first")
	}
	// As pan -a, a search for one property also reports failing
	// assertions and run-time errors; without an LTL flag the safety
	// search below reports them once.
	lo := ltl.Options{Fairness: fair, TimeLimit: so.TimeLimit, Since: so.Since, MemoryLimit: so.MemoryLimit, MemoryLimitFrom: so.MemoryLimitFrom, MaxDepth: so.MaxDepth, Failures: f.given(), Compress: so.Compress, Workers: ltlWorkers}
	if pf, ok := any(m).(interface{ PredicateFault() string }); ok {
		lo.Fault = pf.PredicateFault
	}
	var bar *progressLine
	if e.terminal && !c.opts.quiet && !c.opts.json {
		bar = &progressLine{w: e.stderr}
		lo.Progress = bar.draw
		so.Progress = bar.draw
	}
	stopProfile, err := startProfile(c.opts.profile)
	if err != nil {
		return fail("%v", err)
	}
	defer stopProfile()
	add := func(r trace.Result, st trace.Stats) {
		bar.clear()
		if r.Counterexample != nil && len(c.params) > 0 {
			r.Counterexample.Params = map[string]int64(c.params)
		}
		s := st
		r.Stats = &s
		rep.Verdicts = append(rep.Verdicts, r)
		if len(rep.Verdicts) == 1 {
			rep.Stats = st
		} else {
			rep.Stats.Add(st)
		}
	}

	if f.nonProgress {
		if _, ok := any(m).(ltl.ProgressLabels); !ok {
			return fail("%s: the Promela compiler cannot tell progress states yet, so --non-progress cannot be checked", c.name)
		}
		lo.Property = "non-progress"
		if so.Reduce {
			lo.Reducer = m.Invisible(nil, true)
		}
		r, st, err := ltl.CheckNonProgress(e.ctx, m, lo)
		if err != nil {
			return fail("%v", err)
		}
		add(r, st)
		return c.opts.printReport(e, rep)
	}

	props, err := pml.Properties(prog, pm, pml.Selection{Name: name, Assume: f.assume, ByMC: prog.ByMC()})
	if err != nil {
		fmt.Fprintf(e.stderr, "%v\n", err)
		return trace.ExitUsage
	}
	// Statement merging, as in the safety search; pml.CheckProperty
	// keeps it for the properties that allow it.
	m.SetMerge(!c.opts.noMerge)
	if !f.given() {
		// The model's own properties, by default: safety first, as the
		// explicit search reports it.
		r, st, err := explore.Run(e.ctx, m, so)
		if err != nil {
			return fail("%v", err)
		}
		st.Merging = m.Merging()
		add(r, st)
	}
	for _, p := range props {
		opts := lo
		opts.Property = p.Name
		if so.Reduce {
			opts.Reducer = p.Reducer
		}
		// The previous search's states are garbage now: collect them, so
		// that the memory limit counts this search's alone.
		debug.FreeOSMemory()
		if f.formula != "" {
			// The counterexample names the formula as given, not
			// the block it was read from.
			p.Pos = promela.Pos{}
		}
		r, st, err := pml.CheckProperty(e.ctx, m, p, opts)
		if err != nil {
			return fail("%v", err)
		}
		if f.formula != "" {
			// The report says what was checked: the property's name
			// alone ("formula") does not.
			r.Formula = f.formula
		}
		add(r, st)
	}
	if len(rep.Verdicts) == 0 {
		return fail("%s: no property to check", c.name)
	}
	return c.opts.printReport(e, rep)
}

// loadWithFormula parses the model again, from the text load read, with
// the formula of --ltl-formula as an extra ltl block, so that its propositions are read as the model's
// own (macros, named propositions, remote references). Errors in the
// formula point into it ("--ltl-formula:1:col").
func (c *pmlCheck) loadWithFormula(e *env, formula string) (*promela.Program, *compile.Model, string, int) {
	text := string(c.src)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	lines := strings.Count(text, "\n")
	flines := strings.Count(formula, "\n") + 1
	name := formulaName
	for k := 1; strings.Contains(text, "ltl "+name); k++ {
		name = formulaName + "_" + strconv.Itoa(k)
	}
	text += "ltl " + name + " {\n" + formula + "\n}\n"
	popts := promela.Options{Defines: c.defines.Map()}
	if len(c.params) > 0 {
		popts.Params = map[string]int64(c.params)
	}
	popts.Context = e.ctx
	prog, err := promela.Parse(c.name, []byte(text), popts)
	if readingStopped(e, err) {
		return nil, nil, "", trace.ExitUnknown
	}
	if err == nil {
		err = prog.RequireConcrete()
	}
	var m *compile.Model
	if err == nil {
		m, err = compile.Compile(prog)
	}
	if err == nil && prog.ByMC() {
		m, err = m.Initialised()
	}
	if err != nil {
		fmt.Fprintln(e.stderr, formulaErrors(err.Error(), c.name, lines, flines))
		return nil, nil, "", trace.ExitUsage
	}
	return prog, m, name, -1
}

// formulaErrors rewrites positions past the end of the model file, which
// are in the appended formula (its flines lines, after the line that opens
// the ltl block), as positions in --ltl-formula; the block's closing brace
// is the end of the formula.
func formulaErrors(msg, path string, lines, flines int) string {
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		if rest, ok := strings.CutPrefix(l, path+":"); ok {
			ln, tail, _ := strings.Cut(rest, ":")
			if n, err := strconv.Atoi(ln); err == nil && n > lines {
				switch k := n - lines - 1; {
				case k >= 1 && k <= flines:
					l = "--ltl-formula:" + strconv.Itoa(k) + ":" + tail
				default:
					_, what, _ := strings.Cut(tail, ":")
					what = strings.ReplaceAll(strings.TrimSpace(what), "found '}'", "found the end of the formula")
					l = "--ltl-formula: at the end: " + what
				}
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// A compiled Promela model is what the LTL search needs.
var _ state.Model = (*compile.Model)(nil)
