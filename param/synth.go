package param

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"ftmc/smt"
	"ftmc/ta"
	"ftmc/trace"
)

// Guard synthesis (Lazić, Konnov, Widder, Bloem, "Synthesis of distributed
// algorithms with parameterized threshold guards", OPODIS 2017): an
// automaton whose guards have unknown coefficients (ByMC's `unknowns`,
// bounded by its assumptions) is a sketch; a solution is a vector of
// values with which every specification holds for all parameters.
//
// The loop is counterexample-guided: a solver picks a candidate within the
// unknowns' assumptions; the candidate automaton is verified specification
// by specification; a counterexample (parameters and a run, replayed on
// the instance) becomes a constraint over the unknowns that excludes every
// candidate under which the same run exists and violates the same
// specification — its guards, initial conditions and the negated
// specification evaluated along the run are linear in the unknowns once
// the parameters and counters are numbers. A run the constraint cannot be
// built from (a contracted rule, a finite run of a specification that
// needs an infinite one) excludes its candidate alone. The candidates are
// finitely many, so the loop ends: with a solution, proved for all
// parameters; with none left, each refuted by a concrete counterexample;
// or, when a candidate's verification was not decided, unknown.

// Synthesis is the outcome of Synthesize.
type Synthesis struct {
	Unknowns []string
	// Solution holds the unknowns' values with which every specification
	// holds (nil: none found); Results are those verdicts.
	Solution []int64
	Results  []SpecResult
	// Candidates counts the candidates verified, Refuted those a
	// counterexample excluded (Generalized of them with the constraint
	// of the whole run, the rest one by one), Undecided those whose
	// verification ended unknown.
	Candidates  int
	Refuted     int
	Generalized int
	Undecided   int
	// Complete: a solution was found, or every candidate within the
	// assumptions was refuted.
	Complete bool
	Reason   string
	Seconds  float64
}

// Candidate reports one verified candidate: its values, and the result
// that refuted it (nil when every specification held or one was unknown,
// then in undecided).
type Candidate struct {
	Values    []int64
	RefutedBy *SpecResult
	Undecided *SpecResult
}

// Synthesize looks for values of f's unknowns with which the
// specifications named specs hold for all parameters, verifying each
// candidate with Verify and opts. onCandidate, if set, is called after
// each candidate.
func Synthesize(ctx context.Context, f *ta.File, specs []string, opts Options, onCandidate func(Candidate)) (out Synthesis) {
	start := time.Now()
	opts.Solver = liaSolver(opts.Solver)
	defer func() {
		out.Seconds = time.Since(start).Seconds()
		if !out.Complete && ctx.Err() != nil {
			out.Reason = stopped(ctx) // the budget, not what it interrupted
		}
	}()
	out.Unknowns = ta.Names(f.Unknowns)
	if len(f.Unknowns) == 0 {
		out.Reason = "the automaton has no unknowns"
		return out
	}
	solver, err := smt.New(ctx, opts.Solver)
	if err != nil {
		out.Reason = err.Error()
		return out
	}
	defer solver.Close()
	for i := range f.Unknowns {
		solver.Send(smt.DeclareConst(unknownName(i), "Int"))
	}
	for _, a := range f.Assumptions {
		if !ta.OnlyUnknowns(a) || !ta.Mentions(a, ta.Unknown) {
			continue
		}
		t, err := (&symEnv{}).boolTerm(a)
		if err != nil {
			out.Reason = fmt.Sprintf("%s:%s: %v", f.Path, a.Position(), err)
			return out
		}
		solver.Assert(t)
	}
	// Every unknown needs bounds both ways, else the candidates are
	// endless.
	for i, d := range f.Unknowns {
		for _, side := range []string{"(> %s %d)", "(< %s (- %d))"} {
			solver.Push()
			solver.Assert(fmt.Sprintf(side, unknownName(i), maxUnknown))
			st, err := solver.Check(ctx)
			solver.Pop(1)
			if err != nil || st == smt.Unknown {
				out.Reason = "the solver did not bound the unknowns: " + solverWhy(err, solver)
				return out
			}
			if st == smt.Sat {
				out.Reason = fmt.Sprintf("%s:%s: the assumptions do not bound the unknown %s to -%d..%d: the candidates would be endless", f.Path, d.Pos, d.Name, maxUnknown, maxUnknown)
				return out
			}
		}
	}
	names := make([]string, len(f.Unknowns))
	for i := range names {
		names[i] = unknownName(i)
	}
	// The specification that refuted the last candidate is tried first:
	// neighbouring candidates tend to fail the same way.
	order := append([]string(nil), specs...)
	// A counterexample is read back on the sketch's own locations and
	// rules: no contraction.
	vopts := opts
	vopts.NoContract = true
	for {
		if ctx.Err() != nil {
			out.Reason = stopped(ctx)
			return out
		}
		st, err := solver.Check(ctx)
		if err != nil || st == smt.Unknown {
			out.Reason = "the solver did not pick a candidate: " + solverWhy(err, solver)
			if ctx.Err() != nil {
				out.Reason = stopped(ctx)
			}
			return out
		}
		if st == smt.Unsat {
			if out.Candidates == 0 {
				out.Reason = fmt.Sprintf("%s:%s: no values of the unknowns satisfy the assumptions", f.Path, f.Unknowns[0].Pos)
				return out
			}
			if out.Undecided == 0 {
				out.Complete = true
				out.Reason = fmt.Sprintf("every candidate within the assumptions is refuted (%d verified, %d counterexamples)", out.Candidates, out.Refuted)
			} else {
				out.Reason = fmt.Sprintf("no candidate made every specification hold; %d of the %d verified stay undecided", out.Undecided, out.Candidates)
			}
			return out
		}
		vs, err := solver.Values(ctx, names...)
		if err != nil {
			out.Reason = "the solver's candidate: " + err.Error()
			return out
		}
		vals := make([]int64, len(vs))
		for i, v := range vs {
			x, ok := v.Int64()
			if !ok {
				out.Reason = "the solver gave a non-integer value for " + out.Unknowns[i]
				return out
			}
			vals[i] = x
		}
		out.Candidates++
		cand := Candidate{Values: vals}
		g, err := ta.Substitute(f, vals)
		if err == nil {
			// What the engines refuse in one candidate they refuse in
			// every one: the sketch is out of reach.
			err = Supported(g)
		}
		if err != nil {
			out.Reason = err.Error()
			return out
		}
		var results []SpecResult
		for k, s := range order {
			r := Verify(ctx, g, s, vopts)
			if r.Verdict == trace.Violated {
				out.Refuted++
				if run, ok := runConstraint(f, g, s, r.Counterexample); ok && refutes(ctx, solver, run, vals) {
					out.Generalized++
					solver.Assert(notTerm(run))
				}
				copy(order[1:k+1], order[:k])
				order[0] = s
				cand.RefutedBy = &r
				cand.Undecided = nil
				break
			}
			if r.Verdict == trace.Unknown {
				// Another specification may still refute it.
				if cand.Undecided == nil {
					cand.Undecided = &r
				}
				if ctx.Err() != nil {
					break
				}
				continue
			}
			results = append(results, r)
		}
		if cand.Undecided != nil {
			out.Undecided++
		}
		solver.Assert(pointExclusion(vals))
		if onCandidate != nil {
			onCandidate(cand)
		}
		if cand.RefutedBy == nil && cand.Undecided == nil {
			// In the order the caller gave.
			byName := map[string]SpecResult{}
			for _, r := range results {
				byName[r.Property] = r
			}
			for _, s := range specs {
				out.Results = append(out.Results, byName[s])
			}
			out.Solution = vals
			out.Complete = true
			return out
		}
	}
}

func unknownName(i int) string { return "u" + strconv.Itoa(i) }

func solverWhy(err error, s smt.Solver) string {
	if err != nil {
		return err.Error()
	}
	return s.Reason()
}

// candidateIs is the condition that the unknowns have the values vals.
func candidateIs(vals []int64) string {
	eqs := make([]string, len(vals))
	for i, v := range vals {
		eqs[i] = smt.App("=", unknownName(i), smt.Int(v))
	}
	return smt.And(eqs...)
}

// pointExclusion is the constraint that excludes the candidate vals alone.
func pointExclusion(vals []int64) string { return smt.Not(candidateIs(vals)) }

// maxUnknown bounds the values of unknowns the assumptions must keep to.
const maxUnknown = 1 << 20

// maxRunFirings bounds the single firings of a run turned into a
// constraint.
const maxRunFirings = 20_000

// runConstraint turns the counterexample cex of specification spec on the
// candidate g of sketch f into a condition over the unknowns, true exactly
// for the candidates under which the run's parameters satisfy the
// assumptions, its initial configuration the initial conditions, every
// rule it fires its guard, and the run violates spec. It reports false
// when the run cannot be read back: then the candidate is excluded alone.
func runConstraint(f, g *ta.File, spec string, cex *trace.Counterexample) (string, bool) {
	if cex == nil {
		return "", false
	}
	sp, ok := f.SpecByName(spec)
	if !ok {
		return "", false
	}
	pv := make([]int64, len(f.Params))
	for i, d := range f.Params {
		if d.Quotient != nil {
			continue
		}
		v, ok := cex.Params[d.Name]
		if !ok {
			return "", false
		}
		pv[i] = v
	}
	for i, d := range f.Params {
		if d.Quotient == nil {
			continue
		}
		if ta.Mentions(d.Quotient.Num, ta.Unknown) {
			return "", false
		}
		n, err := ta.Eval(d.Quotient.Num, func(v ta.Var) int64 { return pv[v.Index] })
		if err != nil {
			return "", false
		}
		q := n / d.Quotient.Den
		if n%d.Quotient.Den != 0 && n < 0 {
			q--
		}
		pv[i] = q
	}
	named := map[string]int64{}
	for _, v := range cex.Initial {
		x, err := strconv.ParseInt(v.Value, 10, 64)
		if err != nil {
			return "", false
		}
		named[v.Name] = x
	}
	k := make([]int64, len(f.Locations))
	x := make([]int64, len(f.Shared))
	for i, l := range f.Locations {
		v, ok := named[l.Name]
		if !ok {
			return "", false
		}
		k[i] = v
	}
	for i, d := range f.Shared {
		v, ok := named[d.Name]
		if !ok {
			return "", false
		}
		x[i] = v
	}
	rules := map[string]int{}
	for i, r := range f.Rules {
		rules[r.Name()] = i
	}
	env := &symEnv{pv: pv}
	var conds []string
	add := func(e ta.Expr, kk, xx []int64) bool {
		env.k, env.x = kk, xx
		t, err := env.boolTerm(e)
		if err != nil {
			return false
		}
		if t != "true" {
			conds = append(conds, t)
		}
		return true
	}
	for _, a := range f.Assumptions {
		if ta.OnlyUnknowns(a) && ta.Mentions(a, ta.Unknown) {
			continue // the candidates' own bounds
		}
		if !add(a, k, x) {
			return "", false
		}
	}
	for _, e := range f.Inits {
		if !add(e, k, x) {
			return "", false
		}
	}
	// The configurations of the run, one per single firing; loopAt is
	// the configuration the lasso returns to.
	configs := []config{{k, x}}
	loopAt := -1
	fired := 0
	for i, st := range cex.Steps {
		if i == cex.LoopStart {
			loopAt = len(configs) - 1
		}
		ri, ok := rules[st.Rule]
		if !ok {
			return "", false // a contracted path of rules, or no rule
		}
		r := f.Rules[ri]
		times := st.Multiplicity
		if times == 0 {
			times = 1
		}
		if fired += int(times); times < 0 || fired > maxRunFirings {
			return "", false
		}
		for range times {
			cur := configs[len(configs)-1]
			if cur.k[r.Src] < 1 || !add(r.Guard, cur.k, cur.x) {
				return "", false
			}
			nk := append([]int64(nil), cur.k...)
			nx := append([]int64(nil), cur.x...)
			nk[r.Src]--
			nk[r.Dst]++
			// The updates are read with the candidate's values: an
			// update whose increment depends on an unknown is not
			// generalized.
			for j, u := range g.Rules[ri].Updates {
				if ta.Mentions(r.Updates[j].Expr, ta.Unknown) {
					return "", false
				}
				v, err := ta.Eval(u.Expr, valuation(pv, cur.k, cur.x))
				if err != nil {
					return "", false
				}
				nx[u.Var.Index] = v
			}
			configs = append(configs, config{nk, nx})
		}
	}
	if cex.LoopStart >= 0 {
		if loopAt < 0 {
			return "", false
		}
		last, back := configs[len(configs)-1], configs[loopAt]
		if !sameConfig(last, back) {
			return "", false
		}
		configs = configs[:len(configs)-1]
	}
	// The run must violate the specification: its negation holds at the
	// first configuration.
	ev := &lassoEval{env: env, configs: configs, loop: loopAt, memo: map[lassoKey]string{}}
	holds, err := ev.eval(sp.Formula, 0, true)
	if err != nil {
		return "", false
	}
	conds = append(conds, notTerm(holds))
	return andTerms(conds), true
}

func sameConfig(a, b config) bool {
	for i := range a.k {
		if a.k[i] != b.k[i] {
			return false
		}
	}
	for i := range a.x {
		if a.x[i] != b.x[i] {
			return false
		}
	}
	return true
}

// symEnv evaluates expressions with the parameters, counters and shared
// variables as numbers and the unknowns as solver constants.
type symEnv struct {
	pv, k, x []int64
}

// sym is a number (konst) or a solver term.
type sym struct {
	konst bool
	val   int64
	term  string
}

func (s sym) String() string {
	if s.konst {
		return smt.Int(s.val)
	}
	return s.term
}

func (env *symEnv) value(e ta.Expr) (sym, error) {
	switch e := e.(type) {
	case *ta.IntLit:
		return sym{konst: true, val: e.Val}, nil
	case *ta.BoolLit:
		return sym{konst: true, val: b2i(e.Val)}, nil
	case *ta.Ident:
		switch e.Kind {
		case ta.Unknown:
			return sym{term: unknownName(e.Index)}, nil
		case ta.Param:
			if e.Index < len(env.pv) {
				return sym{konst: true, val: env.pv[e.Index]}, nil
			}
		case ta.Local:
			if e.Index < len(env.k) {
				return sym{konst: true, val: env.k[e.Index]}, nil
			}
		case ta.Shared:
			if e.Index < len(env.x) {
				return sym{konst: true, val: env.x[e.Index]}, nil
			}
		}
		return sym{}, fmt.Errorf("%s has no value here", e.Name)
	case *ta.Unary:
		x, err := env.value(e.X)
		if err != nil {
			return sym{}, err
		}
		switch e.Op {
		case "-":
			if x.konst {
				return sym{konst: true, val: -x.val}, nil
			}
			return sym{term: "(- " + x.term + ")"}, nil
		case "!":
			if x.konst {
				return sym{konst: true, val: b2i(x.val == 0)}, nil
			}
			return sym{term: "(not " + x.term + ")"}, nil
		}
		return sym{}, fmt.Errorf("temporal operator %s in a state condition", e.Op)
	case *ta.Binary:
		x, err := env.value(e.X)
		if err != nil {
			return sym{}, err
		}
		y, err := env.value(e.Y)
		if err != nil {
			return sym{}, err
		}
		if x.konst && y.konst {
			return konstBinary(e.Op, x.val, y.val)
		}
		switch e.Op {
		case "&&", "||", "->":
			a, b := boolSym(x), boolSym(y)
			op := map[string]string{"&&": "and", "||": "or", "->": "=>"}[e.Op]
			return sym{term: "(" + op + " " + a + " " + b + ")"}, nil
		case "+", "-", "*", "<", "<=", ">", ">=", "==":
			op := e.Op
			if op == "==" {
				op = "="
			}
			return sym{term: "(" + op + " " + x.String() + " " + y.String() + ")"}, nil
		case "!=":
			return sym{term: "(not (= " + x.String() + " " + y.String() + "))"}, nil
		}
		return sym{}, fmt.Errorf("operator %s", e.Op)
	}
	return sym{}, fmt.Errorf("unexpected %s", e)
}

// boolSym is the Boolean term of a condition's value.
func boolSym(s sym) string {
	if s.konst {
		if s.val != 0 {
			return "true"
		}
		return "false"
	}
	return s.term
}

func konstBinary(op string, x, y int64) (sym, error) {
	v, err := ta.Eval(&ta.Binary{Op: op, X: intLit(x), Y: intLit(y)}, nil)
	if err != nil {
		return sym{}, err
	}
	return sym{konst: true, val: v}, nil
}

func intLit(v int64) ta.Expr {
	if v < 0 {
		return &ta.Unary{Op: "-", X: &ta.IntLit{Val: -v}}
	}
	return &ta.IntLit{Val: v}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (env *symEnv) boolTerm(e ta.Expr) (string, error) {
	s, err := env.value(e)
	if err != nil {
		return "", err
	}
	return boolSym(s), nil
}

// lassoEval evaluates a formula along a run of configurations: a lasso
// when loop >= 0 (the last configuration is followed by configs[loop]),
// else a finite run, on which only what a finite prefix decides is read:
// an "always" whose truth the continuation could change is refused.
type lassoEval struct {
	env     *symEnv
	configs []config
	loop    int
	memo    map[lassoKey]string
}

type lassoKey struct {
	e   ta.Expr
	pos int
	neg bool
}

// eval returns the term of e at position pos; neg says that the result is
// negated where it is used (so that a finite run refuses the operators
// whose negation claims more than the prefix shows).
func (le *lassoEval) eval(e ta.Expr, pos int, neg bool) (string, error) {
	key := lassoKey{e, pos, neg}
	if t, ok := le.memo[key]; ok {
		return t, nil
	}
	t, err := le.eval1(e, pos, neg)
	if err == nil {
		le.memo[key] = t
	}
	return t, err
}

func (le *lassoEval) reach(pos int) []int {
	var out []int
	from := pos
	if le.loop >= 0 && pos > le.loop {
		from = le.loop
	}
	for j := from; j < len(le.configs); j++ {
		if j >= pos || le.loop >= 0 {
			out = append(out, j)
		}
	}
	return out
}

func (le *lassoEval) eval1(e ta.Expr, pos int, neg bool) (string, error) {
	if !hasTemporal(e) {
		c := le.configs[pos]
		le.env.k, le.env.x = c.k, c.x
		return le.env.boolTerm(e)
	}
	switch e := e.(type) {
	case *ta.Unary:
		switch e.Op {
		case "!":
			t, err := le.eval(e.X, pos, !neg)
			if err != nil {
				return "", err
			}
			return notTerm(t), nil
		case "[]", "<>":
			// Read as the formula checked: "always" is a claim about
			// the whole run, which a finite run shows false only.
			always := e.Op == "[]"
			if le.loop < 0 && always == !neg {
				return "", fmt.Errorf("a finite run does not decide %s", e)
			}
			var ts []string
			for _, j := range le.reach(pos) {
				t, err := le.eval(e.X, j, neg)
				if err != nil {
					return "", err
				}
				ts = append(ts, t)
			}
			if always {
				return andTerms(ts), nil
			}
			return orTerms(ts), nil
		}
	case *ta.Binary:
		switch e.Op {
		case "&&", "||", "->":
			xneg := neg
			if e.Op == "->" {
				xneg = !neg
			}
			x, err := le.eval(e.X, pos, xneg)
			if err != nil {
				return "", err
			}
			y, err := le.eval(e.Y, pos, neg)
			if err != nil {
				return "", err
			}
			switch e.Op {
			case "&&":
				return andTerms([]string{x, y}), nil
			case "||":
				return orTerms([]string{x, y}), nil
			}
			return orTerms([]string{notTerm(x), y}), nil
		}
	}
	return "", fmt.Errorf("a temporal operator inside %s", e)
}

func notTerm(t string) string {
	switch t {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	return "(not " + t + ")"
}

func andTerms(ts []string) string {
	if keep, ok := dropUnits(ts, "true", "false"); ok {
		return smt.And(keep...)
	}
	return "false"
}

func orTerms(ts []string) string {
	if keep, ok := dropUnits(ts, "false", "true"); ok {
		return smt.Or(keep...)
	}
	return "true"
}

// dropUnits leaves out of ts the unit of a connective; it reports false
// when ts has the connective's zero (the whole is the zero).
func dropUnits(ts []string, unit, zero string) ([]string, bool) {
	var keep []string
	for _, t := range ts {
		switch t {
		case zero:
			return nil, false
		case unit:
			continue
		}
		keep = append(keep, t)
	}
	return keep, true
}

// refutes checks with the solver that the candidate vals satisfies run,
// the condition runConstraint built from the candidate's own
// counterexample: a run read back wrong is not used.
func refutes(ctx context.Context, solver smt.Solver, run string, vals []int64) bool {
	solver.Push()
	defer solver.Pop(1)
	solver.Assert(candidateIs(vals))
	solver.Assert(run)
	st, err := solver.Check(ctx)
	return err == nil && st == smt.Sat
}
