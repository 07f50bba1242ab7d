package param

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"ftmc/explore"
	"ftmc/smt"
	"ftmc/state"
	"ftmc/ta"
	"ftmc/trace"
)

// Options configure Verify.
type Options struct {
	// Solver configures the solver process of each worker (default: z3
	// without a timeout). A query that times out makes the verdict unknown
	// (unless a violation is found elsewhere); with Solver.CrossCheck, a
	// second solver confirms every unsat answer, and a disagreement makes
	// the verdict unknown.
	Solver smt.Options
	// Jobs is the number of parallel workers, each with a solver process
	// (at most MaxJobs; less than 1: one).
	Jobs int
	// SplitDepth is the depth of the schema tree down to which nodes are
	// handed out as separate tasks (0: chosen from Jobs).
	SplitDepth int
	// Progress, when set, is called about once a second.
	Progress func(Progress)
	// NoContract turns off the contraction of the moves a reachability
	// specification cannot observe (contract.go).
	NoContract bool
	// NoSlice keeps the rules a reachability specification does not
	// depend on (slice.go).
	NoSlice bool
	// NoDead keeps the rules that no run fires (dead.go).
	NoDead bool
	// Overapprox lets the contraction of a liveness specification merge
	// locations that differ only in what fairness asks of a process that
	// stays there (contract.go, mergeStays). The automaton checked then
	// over-approximates the lassos: holds is still a proof, but a
	// violation is a candidate the caller must confirm on the concrete
	// system (the Promela front end replays every violation).
	Overapprox bool
	// NoHunt turns off the explicit checks of the smallest instances
	// that run beside the search: a quick look at once, the rest once it
	// has not ended within huntDelay (hunt.go).
	NoHunt bool
	// NoSingle turns off the single query (single.go) that decides a
	// reachability disjunct without walking its schema tree.
	NoSingle bool
	// NoFlow keeps every atom of a moving rule's guard a milestone
	// (markFlow), for tests.
	NoFlow bool
	// SingleFirst asks the single query before the tree search instead
	// of beside it, so that it decides every disjunct it can (for tests).
	SingleFirst bool
	// treeReady, when set, is called once a worker of the tree search
	// has its solver, or the search has ended (race).
	treeReady func()
	// Engine is "cegar" for the counter abstraction with refinement
	// (cegar.go), "schema" for the schema engine; by default the schema
	// engine runs, the counter abstraction without refinement for an
	// automaton with resets (abstract.go), and the one with refinement
	// where the schemas cannot: a shared variable that decreases, a
	// liveness specification of an automaton whose rules form cycles.
	Engine string
}

// MaxJobs bounds Options.Jobs: every worker is a solver process.
const MaxJobs = 64

// Progress reports a running verification.
type Progress struct {
	Spec    string
	Schemas int64 // complete schemas checked
	Nodes   int64 // schema prefixes checked
	Pruned  int64 // prefixes refuted (their subtrees skipped)
	Elapsed time.Duration
}

// SpecResult is the outcome for one specification.
type SpecResult struct {
	trace.Result
	Cases int // disjuncts of the negated specification
	Atoms int // threshold atoms (milestones)
	// Unordered counts the threshold atoms that need no milestone: their
	// guards are evaluated where their rules fire (markFlow).
	Unordered int
	Schemas   int64 // complete schemas checked
	Nodes     int64 // prefixes checked (SMT queries on the schema tree)
	Pruned    int64
	MinLen    int // segments in the shortest and longest complete schema
	MaxLen    int
	Queries   int64
	// SolverSeconds is the wall time of the queries of the schemas and
	// of the single query, summed (over parallel workers too).
	SolverSeconds float64
	// Single counts the disjuncts that one query over all milestone
	// orders refuted (single.go); their schemas are not walked.
	Single  int
	Seconds float64
	// Contracted says how contraction shrank the automaton, if it did,
	// and Merged maps each location it merged into another to the one
	// that stands for both in the counterexample.
	Contracted string
	Merged     map[string]string
	// Sliced says how many rules the specification depends on, when
	// that is fewer than all (slice.go).
	Sliced string
	// Dead says how many rules are left once those that no run fires
	// are dropped, when there are any (dead.go).
	Dead string
	// Forbidden says how many rules are left once those the
	// specification forbids are dropped and the locations a process
	// moves between at will are merged, when that breaks the
	// automaton's cycles (slice.go, forbidFor; toggle.go, mergeFree).
	Forbidden string
	// Abstract describes the counter abstraction that checked an
	// automaton with resets (abstract.go), if one did.
	Abstract *AbstractStats
	// CEGAR describes the refinement, when the counter abstraction with
	// refinement ran (cegar.go).
	CEGAR *CEGARStats
}

// Verify checks one specification of f for all parameter values.
func Verify(ctx context.Context, f *ta.File, specName string, opts Options) (res SpecResult) {
	start := time.Now()
	opts.Solver = liaSolver(opts.Solver)
	res = SpecResult{Result: trace.Result{Property: specName, Verdict: trace.Unknown}}
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	spec, ok := f.SpecByName(specName)
	if !ok {
		res.Reason = fmt.Sprintf("no specification named %s", specName)
		return res
	}
	if opts.Engine == "cegar" {
		return verifyCEGAR(ctx, f, spec, opts, res)
	}
	if HasResets(f) {
		return verifyAbstract(ctx, f, spec, opts, res)
	}
	lcs, err := specCases(spec.Formula)
	if err != nil {
		res.Reason = fmt.Sprintf("%s:%s: %v", f.Path, spec.Pos, err)
		return res
	}
	if opts.Engine == "" {
		// What the schemas cannot take, the counter abstraction with
		// refinement may: a shared variable that decreases, the lassos of
		// an automaton whose rules form cycles, and its safety
		// specifications that the contraction leaves a cycle for.
		lasso := slices.ContainsFunc(lcs, func(lc *lcase) bool { return lc.needLoop })
		if m, err := prepareCycles(f, true); err == nil && (m.reset != nil || m.cycle != nil) {
			if m.reset == nil && lasso {
				// The rules the specification forbids, and those
				// between locations a process moves between at will,
				// may be all that close the cycles (slice.go,
				// forbidFor; toggle.go, mergeFree).
				g, n := forbidFor(f, lcs)
				// Exact merges first, then over-approximating ones, then
				// the sets told apart on the loop only (splitFree).
				for _, mode := range []string{"exact", "over", "split"} {
					over := mode != "exact"
					var h *ta.File
					var merged map[string]string
					if mode == "split" {
						h, merged = splitFree(g, lcs)
					} else {
						var err error
						h, merged, err = mergeFree(ctx, g, spec.Formula, over, opts.Solver)
						if err != nil {
							return failed(ctx, res, err)
						}
					}
					m, err := prepareCycles(h, true)
					if err != nil || m.cycle != nil || n == 0 && merged == nil {
						continue
					}
					var did []string
					if n > 0 {
						did = append(did, "dropping those into or out of the locations the specification keeps empty")
					}
					switch {
					case merged == nil:
					case mode == "exact":
						did = append(did, fmt.Sprintf("merging %d locations that a process moves between at will and the specification weighs alike (%s)", len(merged), mergedString(merged)))
					case mode == "over":
						did = append(did, fmt.Sprintf("merging %d locations that a process moves between without updates and the specification weighs alike (%s; an over-approximation: it proves that the specification holds, and a counterexample is looked for by the counter abstraction)", len(merged), mergedString(merged)))
					default:
						did = append(did, fmt.Sprintf("merging %d locations that a process moves between without updates and the specification weighs alike until the loop, where they are told apart again (%s; an over-approximation: it proves that the specification holds, and a counterexample is looked for by the counter abstraction)", len(merged), mergedString(merged)))
					}
					r := res
					r.Forbidden = fmt.Sprintf("%d of %d rules after %s, which leaves no cycle", len(h.Rules), len(f.Rules), strings.Join(did, " and "))
					o := opts
					o.Overapprox = o.Overapprox || over
					r = verifyBySchemas(ctx, h, spec, lcs, o, r, start)
					for a, b := range merged {
						if c, ok := r.Merged[b]; ok {
							b = c
						}
						if r.Merged == nil {
							r.Merged = map[string]string{}
						}
						r.Merged[a] = b
					}
					if over && r.Verdict != trace.Holds && ctx.Err() == nil {
						// Not a proof, and perhaps no violation.
						break
					}
					return r
				}
			}
			if m.reset != nil || lasso {
				return huntedCEGAR(ctx, f, spec, opts, res)
			}
			res = verifyBySchemas(ctx, f, spec, lcs, opts, res, start)
			if res.Verdict != trace.Unknown || ctx.Err() != nil || !strings.Contains(res.Reason, "the rules form a cycle") {
				return res
			}
			r := huntedCEGAR(ctx, f, spec, opts, SpecResult{Result: trace.Result{Property: specName, Verdict: trace.Unknown}})
			if r.Verdict == trace.Unknown {
				r.Reason = res.Reason + "; with refinement: " + r.Reason
			}
			return r
		}
	}
	return verifyBySchemas(ctx, f, spec, lcs, opts, res, start)
}

// verifyBySchemas checks spec, whose negation has the disjuncts lcs, with
// the schema engine.
func verifyBySchemas(ctx context.Context, f *ta.File, spec *ta.Spec, lcs []*lcase, opts Options, res SpecResult, start time.Time) SpecResult {
	if ctx.Err() != nil {
		res.Reason = stopped(ctx)
		return res
	}
	specName := spec.Name
	var reasons []string
	undecided := ""
	verdict := trace.Holds
	// The rules that no run fires go first (dead.go). The slicing and
	// the contraction depend on the specification only, not on the
	// disjunct; a safety specification is sliced first
	// (slice.go). A specification with lasso counterexamples is contracted
	// with what its fairness asks of the processes that stay (and checked
	// in the form that says it on the contracted automaton).
	cf := f
	if !opts.NoDead {
		g, info, err := deadFor(ctx, f, opts.Solver)
		if err != nil {
			return failed(ctx, res, err)
		}
		if info != nil {
			cf = g
			res.Dead = info.String()
		}
	}
	lasso := slices.ContainsFunc(lcs, func(lc *lcase) bool { return lc.needLoop })
	if !opts.NoSlice && !lasso {
		if g, info := sliceFor(cf, spec.Formula); info != nil {
			cf = g
			res.Sliced = info.String()
		}
	}
	if !opts.NoContract {
		g, nspec, info, err := contractFor(ctx, cf, spec.Formula, lasso, opts.Overapprox, opts.Solver)
		if err != nil {
			return failed(ctx, res, err)
		}
		if info != nil {
			if nspec != spec.Formula {
				if lcs, err = specCases(nspec); err != nil {
					res.Reason = fmt.Sprintf("%s:%s: the contracted specification: %v", f.Path, spec.Pos, err)
					return res
				}
			}
			cf = g
			res.Contracted = info.String()
			res.Merged = info.Merged
		}
	}
	res.Cases = len(lcs)
	outer := ctx
	var hunt *hunter
	if !opts.Overapprox && !opts.NoHunt {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		hunt = startHunter(ctx, cancel, f, specName)
		defer hunt.stop()
	}
	// found reports, once a case has ended, whether the hunter stopped the
	// search with a counterexample, and puts it in res.
	found := func() bool {
		if hunt == nil || outer.Err() != nil {
			return false
		}
		r := hunt.stop()
		if r == nil {
			return false
		}
		res.Verdict, res.Kind, res.Counterexample, res.Reason = trace.Violated, r.Kind, r.Counterexample, ""
		return true
	}
	for _, lc := range lcs {
		st := &stats{}
		out := verifyCase(ctx, cf, f, specName, lc, opts, st, start)
		res.Schemas += st.schemas
		res.Nodes += st.nodes
		res.Pruned += st.pruned
		res.Queries += st.queries
		res.SolverSeconds += st.solverTime.Seconds()
		res.Single += int(st.singleUnsat)
		if st.atoms > res.Atoms {
			res.Atoms = st.atoms
		}
		res.Unordered = max(res.Unordered, st.unordered)
		if st.minLen > 0 && (res.MinLen == 0 || st.minLen < res.MinLen) {
			res.MinLen = st.minLen
		}
		if st.maxLen > res.MaxLen {
			res.MaxLen = st.maxLen
		}
		if out.verdict != trace.Violated && ctx.Err() != nil && found() {
			return res
		}
		if out.noRun {
			res.Reason = out.reason
			return res
		}
		if out.undecided != "" {
			undecided = out.undecided
		}
		switch out.verdict {
		case trace.Violated:
			res.Verdict = trace.Violated
			res.Counterexample = out.cex
			res.Reason = ""
			if lc.needLoop {
				res.Kind = state.KindAcceptCycle
			} else {
				res.Kind = state.KindInvariant
			}
			return res
		case trace.Unknown:
			verdict = trace.Unknown
			reasons = append(reasons, out.reason)
		}
	}
	if verdict == trace.Holds && undecided != "" {
		verdict = trace.Unknown
		reasons = append(reasons, "no counterexample found, but whether the automaton has a run at all was not decided: "+undecided)
	}
	res.Verdict = verdict
	if verdict == trace.Unknown {
		res.Reason = strings.Join(dedup(reasons), "; ")
	}
	return res
}

// failed is res, unknown because of err: the reason is err's, or why ctx
// stopped the run when it did.
func failed(ctx context.Context, res SpecResult, err error) SpecResult {
	res.Reason = err.Error()
	if ctx.Err() != nil {
		res.Reason = stopped(ctx)
	}
	return res
}

// answered counts a query asked at t0 and answered now.
func (st *stats) answered(t0 time.Time) {
	st.mu.Lock()
	st.queries++
	st.solverTime += time.Since(t0)
	st.mu.Unlock()
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

type stats struct {
	mu                     sync.Mutex
	schemas, nodes, pruned int64
	queries                int64
	solverTime             time.Duration // in the queries above (the schemas' and the single query's)
	single, singleUnsat    int64         // single queries asked, and answered unsat
	minLen, maxLen         int
	atoms, unordered       int // milestones, and flow atoms (markFlow)
}

func (s *stats) schema(length int) {
	s.mu.Lock()
	s.schemas++
	if s.minLen == 0 || length < s.minLen {
		s.minLen = length
	}
	if length > s.maxLen {
		s.maxLen = length
	}
	s.mu.Unlock()
}

type caseOutcome struct {
	verdict trace.Verdict
	reason  string
	cex     *trace.Counterexample
	// noRun: the automaton has no run (reason says why); undecided: the
	// solver did not answer whether it has one.
	noRun     bool
	undecided string
}

// setup prepares the problem of one disjunct: G conditions, atoms that are
// always true, and the order that implications between atoms force.
func setup(ctx context.Context, f *ta.File, lc *lcase, opts Options) (*problem, error) {
	m, err := prepare(f)
	if err != nil {
		return nil, err
	}
	p := &problem{m: m, lc: lc, gconds: map[*wnode][]*gcond{}, loopGs: lc.loopGs}
	var walk func(n *wnode) error
	walk = func(n *wnode) error {
		for _, g := range n.gs {
			gc, err := m.prepareG(g)
			if err != nil {
				return err
			}
			p.gconds[n] = append(p.gconds[n], gc)
		}
		for _, k := range n.kids {
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(lc.root); err != nil {
		return nil, err
	}
	// The clauses "threshold or k_l == 0" of the loop's conditions, by
	// location l (see loopCond).
	p.loopEmpty = map[int][]*bexpr{}
	for _, e := range lc.loopGs {
		g, err := m.prepareG(e)
		if err != nil {
			return nil, err
		}
		for _, c := range g.clauses {
			if !c.general && len(c.zero) == 1 && len(c.nonzero) == 0 {
				p.loopEmpty[c.zero[0]] = append(p.loopEmpty[c.zero[0]], c.ctx)
			}
		}
	}
	// The milestones: the atoms of the guards of the rules that move or
	// update and of the G conditions. An atom only a stuttering self-loop
	// tests matters in the configuration a lasso repeats, where it is
	// evaluated as it is.
	n := len(m.atoms)
	p.milestone = make([]bool, n)
	for i, r := range m.rules {
		if r.stutter {
			p.stutters = append(p.stutters, i)
		} else {
			markAtoms(r.guard, p.milestone)
		}
	}
	inG := make([]bool, n) // atoms of the G conditions
	for _, gs := range p.gconds {
		for _, g := range gs {
			for _, c := range g.clauses {
				if c.ctx != nil {
					markAtoms(c.ctx, inG)
				}
			}
		}
	}
	for a, g := range inG {
		p.milestone[a] = p.milestone[a] || g
	}
	if !opts.NoFlow {
		p.markFlow(inG)
	}
	p.always = make([]bool, n)
	p.implies = make([][]int, n)
	s, err := smt.New(ctx, opts.Solver)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	p.noRun, p.undecided, p.queries = noRuns(ctx, s, m)
	if n == 0 || p.noRun != "" {
		return p, nil
	}
	base, err := p.base()
	if err != nil {
		return nil, err
	}
	s.Send(base...)
	// An atom found always true, or implied by another, or impossible
	// initially, prunes the search: the verdict rests on these unsat
	// answers too. A query that fails stops the setup.
	var failed error
	// each asks whether each term is satisfiable with the assertions,
	// all at once (smt.CheckEach); Unknown after a failure.
	each := func(terms []string) []smt.Status {
		if failed != nil {
			return make([]smt.Status, len(terms))
		}
		sts, err := smt.CheckEach(ctx, s, terms)
		if err != nil {
			failed = err
			return make([]smt.Status, len(terms))
		}
		return sts
	}
	bounds := make([]string, n)
	for a := range m.atoms {
		bounds[a] = smt.Not(smt.App("<=", linTerm(m.atoms[a].bound, ""), "0"))
	}
	for a, st := range each(bounds) {
		p.always[a] = st == smt.Unsat
	}
	// Which atoms an initial configuration (of this disjunct) may satisfy.
	{
		s.Push()
		t0 := stateNames("t0")
		cmds := p.declareState(t0)
		for v := 0; v < m.nsh; v++ {
			cmds = assertAll(cmds, smt.App(">=", t0.x(v), "0"))
		}
		ok := true
		for _, e := range append(append([]ta.Expr(nil), m.f.Inits...), lc.root.props...) {
			t, err := exprTerm(e, t0)
			if err != nil {
				ok = false
				break
			}
			cmds = assertAll(cmds, t)
		}
		s.Send(cmds...)
		if ok {
			terms := make([]string, 0, n+m.nloc)
			for a := range m.atoms {
				terms = append(terms, m.atomTerm(a, t0))
			}
			for l := 0; l < m.nloc; l++ {
				terms = append(terms, smt.App(">=", t0.k(l), "1"))
			}
			sts := each(terms)
			p.initial = make([]bool, n)
			for a := range p.initial {
				p.initial[a] = sts[a] != smt.Unsat
			}
			p.initOcc = make([]bool, m.nloc)
			for l := range p.initOcc {
				p.initOcc[l] = sts[n+l] != smt.Unsat
			}
		}
		// a implies b when S_b - S_a never drops below zero: it is
		// non-negative initially and no rule decreases it (for example
		// nsnt01 >= N - T follows from nsnt0 >= N - T when every rule
		// that sends 0 also counts it in nsnt01), and a's bound is at
		// least b's.
		// rulesKeep reports whether no rule decreases diff.
		rulesKeep := func(diff ta.Lin) bool {
			// Coefficients and increments are at most about 2^42, their
			// products not: the sum is exact.
			var d, t big.Int
			for _, r := range m.rules {
				d.SetInt64(0)
				for v, c := range diff.Coef {
					d.Add(&d, t.Mul(big.NewInt(c), big.NewInt(r.inc[v.Index])))
				}
				if d.Sign() < 0 {
					return false
				}
			}
			return true
		}
		// The pairs of milestones, and which bound is at least which
		// (bound[a][b]: a's at least b's), in one batch.
		var cand []int
		for a := range m.atoms {
			if !p.always[a] && p.isMilestone(a) {
				cand = append(cand, a)
			}
		}
		type pair struct{ a, b int }
		var pairs []pair
		var terms []string
		for _, a := range cand {
			for _, b := range cand {
				if a != b {
					pairs = append(pairs, pair{a, b})
					terms = append(terms, smt.Not(smt.App(">=", linTerm(m.atoms[a].bound, ""), linTerm(m.atoms[b].bound, ""))))
				}
			}
		}
		bound := map[pair]bool{}
		for k, st := range each(terms) {
			bound[pairs[k]] = st == smt.Unsat
		}
		// keeps[{a, b}]: S_b - S_a never drops below zero, for the pairs
		// whose bounds allow a to imply b; the checks in one batch.
		keeps := map[pair]bool{}
		var asked []pair
		terms = terms[:0]
		for _, pr := range pairs {
			if !bound[pr] {
				continue
			}
			diff := m.atoms[pr.b].shared.Add(m.atoms[pr.a].shared.Scale(-1))
			switch {
			case !rulesKeep(diff):
				// A rule decreases it: a does not imply b.
			case !ok:
				// Without the initial configurations: when no
				// coefficient is negative.
				nonneg := true
				for _, c := range diff.Coef {
					nonneg = nonneg && c >= 0
				}
				keeps[pr] = nonneg
			default:
				asked = append(asked, pr)
				terms = append(terms, smt.Not(smt.App(">=", linTerm(diff, t0), "0")))
			}
		}
		for k, st := range each(terms) {
			keeps[asked[k]] = st == smt.Unsat
		}
		for _, pr := range pairs {
			a, b := pr.a, pr.b
			if !bound[pr] || !keeps[pr] {
				continue
			}
			// a implies b: b turns true no later than a. Between
			// equivalent atoms only the lower index goes first.
			if rev := (pair{b, a}); b > a && bound[rev] && keeps[rev] {
				continue
			}
			p.implies[a] = append(p.implies[a], b)
		}
		s.Pop(1)
	}
	if failed != nil {
		return nil, failed
	}
	return p, nil
}

// markFlow takes out of the milestones the atoms that need no context:
// an atom that only the guards of moving rules test, only positively,
// over shared variables that only rules before each of those (in m.order)
// increment. Such a guard is evaluated where its rule fires, over the
// state: in a step the state before it, in an accelerated segment the
// segment's end, which has the shared variables the rule sees, since the
// rules that change them come before it in the segment and none after.
//
// Why no run is lost: cut a run only where a milestone atom changes and
// at its witnesses, and reorder each piece into m.order (as for the
// contexts). Where a rule fires in the reordered piece, every increment
// of the variables its flow atoms read has happened: they have the
// piece's final values, at least those it saw in the run, and its flow
// literals are positive, so they still hold. The milestones keep their
// values over the piece as before. Fewer milestones mean fewer and
// shorter schemas: in ByMC's randomized-consensus automata every guard
// of a correct process is such an atom, and only the crash counter's
// bound remains.
func (p *problem) markFlow(inG []bool) {
	m := p.m
	n := len(m.atoms)
	flow := make([]bool, n)
	bad := slices.Clone(inG) // tested by a G condition, negatively, or out of order
	pos := make([]int, len(m.rules))
	for k, i := range m.order {
		pos[i] = k
	}
	// lastInc[v]: the position of the last rule in m.order that
	// increments v (-1: none; stuttering rules increment nothing).
	lastInc := make([]int, m.nsh)
	for v := range lastInc {
		lastInc[v] = -1
	}
	for _, i := range m.order {
		for v, c := range m.rules[i].inc {
			if c != 0 {
				lastInc[v] = pos[i]
			}
		}
	}
	var lits func(b *bexpr, r int)
	lits = func(b *bexpr, r int) {
		if b.op == 'l' {
			a := b.atom
			flow[a] = true
			if !b.pos {
				bad[a] = true
				return
			}
			for v := range m.atoms[a].shared.Coef {
				if lastInc[v.Index] >= pos[r] {
					bad[a] = true
				}
			}
			return
		}
		for _, k := range b.kids {
			lits(k, r)
		}
	}
	for i, r := range m.rules {
		if !r.stutter {
			lits(r.guard, i)
		}
	}
	any := false
	for a := range flow {
		flow[a] = flow[a] && !bad[a]
		if flow[a] {
			p.milestone[a] = false
			any = true
		}
	}
	if any {
		p.flow = flow
	}
}

// flows counts the flow atoms.
func (p *problem) flows() int { return countTrue(p.flow) }

// milestones counts the atoms the schemas order.
func (p *problem) milestones() int { return countTrue(p.milestone) }

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// stopped is the reason of a search that ctx ended.
func stopped(ctx context.Context) string {
	return explore.StopCause(ctx) + " before all schemas were checked"
}

// search is the shared state of the workers on one disjunct.
type search struct {
	p      *problem
	opts   Options
	st     *stats
	cancel context.CancelFunc
	base   []string

	mu          sync.Mutex
	cond        *sync.Cond
	queue       [][]item
	outstanding int
	found       *trace.Counterexample
	unknown     []string
	err         error
	done        bool
}

// verifyCase decides the disjunct lc of specName's negation on f, the
// automaton contracted for it; orig is the automaton as written.
func verifyCase(ctx context.Context, f, orig *ta.File, specName string, lc *lcase, opts Options, st *stats, start time.Time) caseOutcome {
	p, err := setup(ctx, f, lc, opts)
	if err == nil {
		p.orig, p.spec = orig, specName
	}
	if err != nil {
		if ctx.Err() != nil {
			return caseOutcome{verdict: trace.Unknown, reason: stopped(ctx)}
		}
		return caseOutcome{verdict: trace.Unknown, reason: err.Error()}
	}
	st.mu.Lock()
	st.queries += p.queries
	st.mu.Unlock()
	if p.noRun != "" {
		return caseOutcome{verdict: trace.Unknown, reason: p.noRun, noRun: true}
	}
	if !opts.NoSingle && p.singleApplies() {
		st.atoms, st.unordered = p.milestones(), p.flows()
		if opts.SingleFirst {
			if out, ok := singleOutcome(ctx, p, opts, st); ok {
				return out
			}
		} else if roomForSolver(ctx) {
			return race(ctx, p, specName, opts, st, start)
		}
	}
	out := verifySchemas(ctx, p, specName, opts, st, start)
	out.undecided = p.undecided
	return out
}

// singleOutcome asks the single query of p; ok reports a decision.
func singleOutcome(ctx context.Context, p *problem, opts Options, st *stats) (caseOutcome, bool) {
	unsat, cex, err := singleCheck(ctx, p, opts, st)
	if ctx.Err() != nil {
		return caseOutcome{verdict: trace.Unknown, reason: stopped(ctx)}, false
	}
	// Solvers that disagree make the verdict unknown, as anywhere;
	// another error, or a model that is no counterexample, leaves the
	// question to the tree search.
	if err != nil && strings.HasPrefix(err.Error(), "solvers disagree") {
		return caseOutcome{verdict: trace.Unknown, reason: err.Error()}, true
	}
	if err == nil && cex != nil {
		return caseOutcome{verdict: trace.Violated, cex: cex}, true
	}
	if err == nil && unsat {
		st.mu.Lock()
		st.singleUnsat++
		st.mu.Unlock()
		return caseOutcome{verdict: trace.Holds, undecided: p.undecided}, true
	}
	return caseOutcome{}, false
}

// singleDelay is how long the single query waits for the tree search to
// be decided once it has its solver (race).
const singleDelay = 10 * time.Millisecond

// solverRoom is the memory a second solver needs to start: z3 and cvc5
// take 20 to 30 MB before their first answer.
const solverRoom = 64 << 20

// roomForSolver reports whether the memory budget of ctx, if any, has
// room for another solver.
func roomForSolver(ctx context.Context) bool {
	room, ok := explore.MemoryRoom(ctx)
	return !ok || room >= solverRoom
}

// race runs the single query beside the tree search and takes the first
// decision. Neither is always the faster: the single query decides the
// randomized-consensus automata in a second where the tree search takes
// minutes, and takes its whole limit on automata whose tree search ends
// in a second (ABA's Promela model). A tree search that ends unknown
// (not stopped) waits for the single query.
func race(ctx context.Context, p *problem, specName string, opts Options, st *stats, start time.Time) caseOutcome {
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	tctx, tcancel := context.WithCancel(ctx)
	defer tcancel()
	type single struct {
		out     caseOutcome
		decided bool
	}
	// The tree search takes its solver first: the one the setup used,
	// which the run's pool keeps, answers at once, and a new process
	// takes 9-20 ms before its first answer. The tree of a small
	// automaton is decided in a few milliseconds, less than its single
	// query (cav15's strb-bcast-byz: 1-2 ms against 16 ms); the single
	// query of a large one takes far longer than a process's start. So
	// the single query starts singleDelay after the tree search has its
	// solver: a tree search decided by then needs no second process,
	// whose start would take the CPU from it (on two cores, runs of 20
	// to 140 ms on strb, aba and bcrb took 2-6 ms less).
	ready := make(chan struct{})
	topts := opts
	var once sync.Once
	topts.treeReady = func() { once.Do(func() { close(ready) }) }
	sch := make(chan single, 1)
	go func() {
		select {
		case <-ready:
		case <-sctx.Done():
		}
		select {
		case <-time.After(singleDelay):
		case <-sctx.Done():
			sch <- single{}
			return
		}
		out, ok := singleOutcome(sctx, p, opts, st)
		sch <- single{out, ok}
	}()
	tch := make(chan caseOutcome, 1)
	go func() {
		out := verifySchemas(tctx, p, specName, topts, st, start)
		topts.treeReady()
		out.undecided = p.undecided
		tch <- out
	}()
	select {
	case r := <-sch:
		if r.decided {
			tcancel()
			<-tch
			return r.out
		}
		return <-tch
	case out := <-tch:
		if out.verdict == trace.Unknown && ctx.Err() == nil {
			if r := <-sch; r.decided {
				return r.out
			}
			return out
		}
		scancel()
		<-sch
		return out
	}
}

// verifySchemas walks the schema tree of one disjunct.
func verifySchemas(ctx context.Context, p *problem, specName string, opts Options, st *stats, start time.Time) caseOutcome {
	st.atoms, st.unordered = p.milestones(), p.flows()
	base, err := p.base()
	if err != nil {
		return caseOutcome{verdict: trace.Unknown, reason: err.Error()}
	}
	jobs := min(max(opts.Jobs, 1), MaxJobs)
	if opts.SplitDepth == 0 && jobs > 1 {
		opts.SplitDepth = 3
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &search{p: p, opts: opts, st: st, cancel: cancel, base: base}
	s.cond = sync.NewCond(&s.mu)
	s.queue = [][]item{nil}
	s.outstanding = 1

	stopProgress := make(chan struct{})
	if opts.Progress != nil {
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stopProgress:
					return
				case <-t.C:
					st.mu.Lock()
					pr := Progress{Spec: specName, Schemas: st.schemas, Nodes: st.nodes, Pruned: st.pruned, Elapsed: time.Since(start)}
					st.mu.Unlock()
					opts.Progress(pr)
				}
			}
		}()
	}
	var wg sync.WaitGroup
	for i := 0; i < jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(cctx)
		}()
	}
	// Wake idle workers when the context ends.
	go func() {
		<-cctx.Done()
		s.mu.Lock()
		s.done = true
		s.cond.Broadcast()
		s.mu.Unlock()
	}()
	wg.Wait()
	close(stopProgress)

	switch {
	case s.found != nil:
		return caseOutcome{verdict: trace.Violated, cex: s.found}
	case s.err != nil:
		return caseOutcome{verdict: trace.Unknown, reason: s.err.Error()}
	case ctx.Err() != nil:
		return caseOutcome{verdict: trace.Unknown, reason: stopped(ctx)}
	case len(s.unknown) > 0:
		return caseOutcome{verdict: trace.Unknown, reason: strings.Join(dedup(s.unknown), "; ")}
	}
	if why := p.inexact(); why != "" {
		return caseOutcome{verdict: trace.Unknown, reason: "no counterexample found, but " + why}
	}
	return caseOutcome{verdict: trace.Holds}
}

func (s *search) take() ([]item, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) == 0 && s.outstanding > 0 && !s.done {
		s.cond.Wait()
	}
	if s.done || len(s.queue) == 0 {
		return nil, false
	}
	t := s.queue[len(s.queue)-1]
	s.queue = s.queue[:len(s.queue)-1]
	return t, true
}

func (s *search) finish(children [][]item) {
	s.mu.Lock()
	s.queue = append(s.queue, children...)
	s.outstanding += len(children) - 1
	if s.outstanding == 0 {
		s.done = true
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *search) fail(err error) {
	s.mu.Lock()
	if s.err == nil && s.found == nil {
		s.err = err
	}
	s.done = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.cancel()
}

func (s *search) report(c *trace.Counterexample) {
	s.mu.Lock()
	if s.found == nil {
		s.found = c
	}
	s.done = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.cancel()
}

func (s *search) noteUnknown(why string) {
	s.mu.Lock()
	s.unknown = append(s.unknown, why)
	s.mu.Unlock()
}

// worker owns one solver and the prefix currently asserted in it.
type worker struct {
	s      *search
	solver smt.Solver
	items  []item   // asserted prefix (after the root)
	frames []*frame // frames[0] is the root
}

func (s *search) work(ctx context.Context) {
	solver, err := smt.New(ctx, s.opts.Solver)
	if s.opts.treeReady != nil {
		s.opts.treeReady()
	}
	if err != nil {
		if ctx.Err() == nil {
			s.fail(err)
		}
		return
	}
	defer solver.Close()
	solver.Send(s.base...)
	w := &worker{s: s, solver: solver}
	for {
		task, ok := s.take()
		if !ok {
			return
		}
		children, err := w.run(ctx, task)
		if err != nil {
			if ctx.Err() == nil {
				s.fail(err)
			}
			s.finish(nil)
			return
		}
		s.finish(children)
	}
}

// sync makes the solver hold exactly the prefix task.
func (w *worker) sync(task []item) error {
	p := w.s.p
	common := 0
	if len(w.frames) > 0 {
		for common < len(task) && common < len(w.items) && sameItem(task[common], w.items[common]) {
			common++
		}
		// frames has len(items)+1 levels (root first).
		drop := len(w.items) - common
		w.solver.Pop(drop)
		w.items = w.items[:common]
		w.frames = w.frames[:common+1]
	} else {
		w.solver.Push()
		fr, cmds, err := p.rootFrame()
		if err != nil {
			return err
		}
		w.solver.Send(cmds...)
		w.frames = []*frame{fr}
	}
	for _, it := range task[common:] {
		fr, cmds, err := p.child(w.frames[len(w.frames)-1], it)
		if err != nil {
			return err
		}
		w.solver.Push()
		w.solver.Send(cmds...)
		w.frames = append(w.frames, fr)
		w.items = append(w.items, it)
	}
	return nil
}

func sameItem(a, b item) bool { return a.atom == b.atom && a.cut == b.cut && a.root == b.root }

// run checks the prefix task and explores below it: depth first in this
// worker, or handing children out as tasks near the root of the tree.
func (w *worker) run(ctx context.Context, task []item) ([][]item, error) {
	if err := w.sync(task); err != nil {
		return nil, err
	}
	var out [][]item
	err := w.explore(ctx, task, &out)
	return out, err
}

func (w *worker) check(ctx context.Context, assumptions ...string) (smt.Status, error) {
	t0 := time.Now()
	st, err := w.solver.Check(ctx, assumptions...)
	w.s.st.answered(t0)
	if err != nil {
		if ctx.Err() != nil {
			return smt.Unknown, ctx.Err()
		}
		return smt.Unknown, err
	}
	return st, nil
}

// explore handles the node at the end of the asserted prefix.
func (w *worker) explore(ctx context.Context, prefix []item, out *[][]item) error {
	if ctx.Err() != nil {
		return nil
	}
	s, p := w.s, w.s.p
	fr := w.frames[len(w.frames)-1]
	length := len(prefix) + 1
	// When only the last witness (or only the loop) is left, check it as an
	// assumption on this prefix: one query answers both whether the
	// property is violated here and, through the unsat core, whether the
	// prefix is feasible at all.
	last, err := w.finalCheck(fr)
	if err != nil {
		return err
	}
	if last != "" {
		lit := fmt.Sprintf("fin%d", fr.depth)
		w.solver.Send(smt.DeclareConst(lit, "Bool"), "(assert (=> "+lit+" "+last+"))")
		st, err := w.check(ctx, lit)
		if err != nil {
			return err
		}
		s.st.schema(length)
		s.st.mu.Lock()
		s.st.nodes++
		s.st.mu.Unlock()
		switch st {
		case smt.Sat:
			return w.counterexample(ctx, lit, p.lc.needLoop)
		case smt.Unknown:
			s.noteUnknown(w.solver.Reason())
			return nil
		}
		core, err := w.solver.UnsatCore(ctx)
		if err != nil {
			return err
		}
		if !contains(core, lit) {
			s.st.mu.Lock()
			s.st.pruned++
			s.st.mu.Unlock()
			return nil // the prefix itself is infeasible
		}
		return w.expand(ctx, fr, prefix, out, true)
	}
	st, err := w.check(ctx)
	if err != nil {
		return err
	}
	s.st.mu.Lock()
	s.st.nodes++
	if st == smt.Unsat {
		s.st.pruned++
	}
	s.st.mu.Unlock()
	if !p.lc.needLoop && len(fr.frontier) == 0 {
		s.st.schema(length) // a complete reachability schema
	}
	switch st {
	case smt.Unsat:
		return nil
	case smt.Unknown:
		s.noteUnknown(w.solver.Reason())
		return nil
	}
	if len(fr.frontier) == 0 && !p.lc.needLoop {
		// Every witness is placed: this run violates the property.
		return w.counterexample(ctx, "", false)
	}
	return w.expand(ctx, fr, prefix, out, false)
}

// finalCheck returns the condition that completes a counterexample at the
// end of fr when nothing else is left to place: the last witness of a
// reachability property, or the loop of a lasso.
func (w *worker) finalCheck(fr *frame) (string, error) {
	p := w.s.p
	switch {
	case p.lc.needLoop && len(fr.frontier) == 0:
		return p.loopCond(fr)
	case !p.lc.needLoop && len(fr.frontier) == 1 && len(fr.frontier[0].kids) == 0 && len(p.gconds[fr.frontier[0]]) == 0:
		var ts []string
		for _, e := range fr.frontier[0].props {
			t, err := exprTerm(e, fr.end)
			if err != nil {
				return "", err
			}
			ts = append(ts, t)
		}
		return smt.And(ts...), nil
	}
	return "", nil
}

func contains(ss []string, x string) bool {
	for _, s := range ss {
		if s == x {
			return true
		}
	}
	return false
}

// expand explores the children of the node fr; with milestonesOnly the last
// witness was already checked at this node.
func (w *worker) expand(ctx context.Context, fr *frame, prefix []item, out *[][]item, milestonesOnly bool) error {
	s := w.s
	children := w.children(fr)
	for _, it := range children {
		if milestonesOnly && it.cut != nil {
			continue
		}
		next := append(append([]item(nil), prefix...), it)
		if len(prefix) < s.opts.SplitDepth {
			*out = append(*out, next)
			continue
		}
		if err := w.sync(next); err != nil {
			return err
		}
		if err := w.explore(ctx, next, out); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// children lists the items that may follow: the witnesses whose parent is
// placed, and the atoms whose implied atoms are already true.
func (w *worker) children(fr *frame) []item {
	p := w.s.p
	var out []item
	for _, c := range fr.frontier {
		out = append(out, item{atom: -1, cut: c})
	}
	for a := range p.m.atoms {
		if fr.flipped[a] || !p.isMilestone(a) {
			continue
		}
		ok := p.mayTurnTrue(fr, a)
		for _, b := range p.implies[a] {
			ok = ok && fr.flipped[b]
		}
		if ok {
			out = append(out, item{atom: a})
		}
	}
	return out
}

// liaSolver is o told the logic of every query the engine asks:
// quantifier-free linear integer arithmetic (the automata's expressions
// are linear, ta.Linear). Told so, z3 builds a smaller context: its first
// command takes 9 ms instead of 17, in the huge pages smt gives it (z3
// 4.8.12; 5,000 page faults instead of 570).
func liaSolver(o smt.Options) smt.Options {
	if o.Logic == "" {
		o.Logic = "QF_LIA"
	}
	if (o.Name == "" || o.Name == "z3") && !o.AutoConfig && o.Hedge == nil {
		// z3's own configuration for the checks that take long: on the
		// lasso queries of the automata ByMC derived from Promela it
		// is five to ten times faster than ours, which is faster on
		// the others (smt.Options.AutoConfig).
		h := o
		h.AutoConfig = true
		o.Hedge, o.HedgeAfter, o.HedgeIf = &h, hedgeAfter, roomForSolver
	}
	if o.CrossCheck != nil {
		c := liaSolver(*o.CrossCheck)
		o.CrossCheck = &c
	}
	return o
}

// hedgeAfter is how long a check waits before it is asked of a process
// of z3's own configuration too (smt.Options.Hedge).
const hedgeAfter = 2 * time.Second

// Prestart starts the solver that Verify and Synthesize ask first in the
// pool of ctx (smt.Prestart), so that its start overlaps with the
// caller's reading of the automaton.
func Prestart(ctx context.Context, solver smt.Options) {
	smt.Prestart(ctx, liaSolver(solver))
}

// Supported reports why the schema engine cannot handle f (unknowns,
// guards that are not monotone in the shared variables, updates that are
// not increments), or nil. Rules that form a cycle are reported for each
// specification whose contracted automaton still has one.
func Supported(f *ta.File) error {
	_, err := prepareCycles(f, true)
	return err
}

// markAtoms marks the atoms of b.
func markAtoms(b *bexpr, mark []bool) {
	if b.op == 'l' {
		mark[b.atom] = true
	}
	for _, k := range b.kids {
		markAtoms(k, mark)
	}
}
