package backreach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"ftmc/explore"
	"ftmc/mcmt/system"
	"ftmc/smt"
	"ftmc/trace"
)

// Options bound and tune a search.
type Options struct {
	// MaxNodes bounds the work of the whole run (0: 200000): the cubes
	// added to a visited set, counted once each even when a later cube
	// covers and removes them, over the property's search, its restarts,
	// the proof of the suggested invariants and the bounded proofs of
	// candidate lemmas. Reaching it gives the verdict unknown.
	MaxNodes int
	// Solver configures the SMT solver of the fixpoint checks.
	Solver smt.Options
	// NoSMT leaves fixpoint checks to syntactic matching alone (sound,
	// weaker: the search may not converge).
	NoSMT bool
	// IgnoreCandidates leaves the model's candidate invariants unused.
	IgnoreCandidates bool
	// Approx, when positive, looks for invariants among the sub-cubes of
	// visited cubes that no reachable state of an instance with Approx
	// processes satisfies; see brab.go.
	Approx int
	// Guess uses such a sub-cube unproved, when a bounded search can
	// neither prove nor refute it (Cubicle's BRAB): the guess becomes a
	// root of the property's search, so a "holds" proves it too, and one
	// found reachable is banned at the cost of a restart. ftmc verify
	// sets it unless --guess=false.
	Guess bool
	// LemmaBudget bounds the cubes of the search that proves a lemma (0:
	// 30; negative: no proof, every candidate is a guess, whatever Guess
	// says).
	LemmaBudget int
	// Confirm, when larger than Approx, is the size of a second instance
	// that a candidate must not reach either: the first instance filters
	// cheaply, the second catches candidates true only for few processes.
	Confirm int
	// ApproxLits bounds the literals of a candidate invariant, after
	// generalization (0: 3; negative: no bound). Candidates are tried
	// smallest first anyway; the bound keeps the large ones, whose proofs
	// mostly exhaust the lemma budget, from being tried at all.
	ApproxLits int
	// ApproxProcs bounds the processes of a candidate invariant (0: one
	// less than Approx, so that the instance always has a process more
	// than the candidate talks about).
	ApproxProcs int
	// MaxOracleStates bounds that instance's exploration (0: 2,000,000).
	MaxOracleStates int64
	// Log, when set, receives one line per cube visited, guess made and
	// lemma proved: the search as it happens, for studying a model.
	Log io.Writer
	// Progress, when set, is called about every ProgressEvery (default 1s).
	Progress      func(Stats)
	ProgressEvery time.Duration
}

// Stats are the figures of a search.
type Stats struct {
	Nodes          int64   // cubes kept in the visited set of the property's search
	InvNodes       int64   // cubes visited to prove the suggested invariants first
	ProofNodes     int64   // cubes visited by the bounded searches that try candidate lemmas
	Generated      int64   // cubes produced by pre-images
	Covered        int64   // cubes found covered by visited ones or axioms
	CoveredLocal   int64   // of which case splitting decided
	CoveredSMT     int64   // of which the SMT solver decided
	Deleted        int64   // visited cubes removed as covered by a later one
	FixpointChecks int64   // coverage checks run
	Matches        int64   // syntactic matching attempts
	SMTCalls       int64   // SMT queries
	LocalChecks    int64   // decisions of the local solver
	Invariants     int     // candidate invariants proved and used
	Lemmas         int     // invariants found and proved during the search
	LemmaTries     int     // candidate invariants tried
	Guesses        int     // approximations (guessed negated invariants) kept
	Banned         int     // approximations found reachable
	OracleStates   int64   // states of the instance used to guess
	Refuted        int     // candidate invariants found reachable
	Restarts       int     // searches restarted without a refuted candidate
	Depth          int     // longest chain of pre-images kept
	MaxProcs       int     // most process variables in a kept cube
	Seconds        float64 // wall time
}

// Figures lists the statistics for a report, in a stable order.
func (s Stats) Figures() []trace.Figure {
	return []trace.Figure{
		{Name: "nodes", Value: float64(s.Nodes)},
		{Name: "invariant_nodes", Value: float64(s.InvNodes)},
		{Name: "proof_nodes", Value: float64(s.ProofNodes)},
		{Name: "generated", Value: float64(s.Generated)},
		{Name: "covered", Value: float64(s.Covered)},
		{Name: "deleted", Value: float64(s.Deleted)},
		{Name: "fixpoint_checks", Value: float64(s.FixpointChecks)},
		{Name: "smt_calls", Value: float64(s.SMTCalls)},
		{Name: "local_checks", Value: float64(s.LocalChecks)},
		{Name: "invariants", Value: float64(s.Invariants)},
		{Name: "refuted_candidates", Value: float64(s.Refuted)},
		{Name: "lemmas", Value: float64(s.Lemmas)},
		{Name: "lemma_tries", Value: float64(s.LemmaTries)},
		{Name: "guessed_invariants", Value: float64(s.Guesses)},
		{Name: "banned_guesses", Value: float64(s.Banned)},
		{Name: "oracle_states", Value: float64(s.OracleStates)},
		{Name: "restarts", Value: float64(s.Restarts)},
		{Name: "depth", Value: float64(s.Depth)},
		{Name: "max_processes", Value: float64(s.MaxProcs)},
	}
}

// Result is the verdict on the model's property.
type Result struct {
	Property string
	Verdict  trace.Verdict
	Reason   string                // why unknown
	Trace    *trace.Counterexample // for violated: a run that replays on an instance
	Stats    Stats
	// Proved and Refuted describe the candidate invariants.
	Proved, Refuted []string
	// Lemmas are the negated invariants found and proved by the search,
	// as cubes over processes #1, #2, ...
	Lemmas []string
	// Guesses are the negated invariants the last search guessed, as
	// cubes like Lemmas; with the verdict holds, that search proved them
	// together with the property.
	Guesses  []string
	Warnings []string
}

// maxProcs bounds the process variables of a cube.
const maxProcs = 12

type node struct {
	c      *cube
	parent *node
	tr     int   // transition that leads from this cube into the parent's
	params []int // process variables of this cube the parameters were placed on
	root   int
	depth  int
	approx bool
	dead   bool
	// added marks a guess that joined the visited set when it was made;
	// it is only expanded when it leaves the queue.
	added bool
}

type root struct {
	c         *cube
	candidate int // index in System.Candidates, -1 for the property
}

type engine struct {
	sys       *system.System
	voc       *vocabulary
	solver    *solver
	trans     []*itrans
	init      *pquant
	initCache map[int]dnf
	initGlob  dnf
	roots     []root
	forbidden []*cube
	// declared are the variables' domains as declared, before the unit
	// axioms narrow them.
	declared []domain
	// lemmas are negated invariants proved during the search: cubes that
	// no run reaches, over distinct processes.
	lemmas []*cube
	// invs are the suggested negated invariants, once proved on their
	// own; they prune like lemmas.
	invs []*cube
	// proofNodes is the size of the last bounded proof, for the log.
	proofNodes int
	// tried remembers the candidate lemmas already tried (by their text).
	tried map[string]bool
	// bounded is set while a lemma is being proved: no SMT, no guesses.
	bounded bool
	smt     *smtCheck
	oracle  *oracle
	confirm *oracle
	banned  []*cube
	// guesses are those of the last search that ran to its end.
	guesses []*cube
	opts    Options
	stats   Stats
	tooMany bool
	visits  int // cubes added to the visited set, for the log
	// work counts the cubes added to any visited set, proofs included:
	// what Options.MaxNodes bounds.
	work     int
	noSMT    bool // the solver is missing
	warnings []string
	start    time.Time
	lastProg time.Time
}

// Check is Verify whose every outcome is a verdict, for reports: a limit
// of ctx that cut the search short where it could not say so itself (a
// solver process interrupted) is unknown with the limit, and a model the
// engine cannot handle is unknown with the reason.
func Check(ctx context.Context, sys *system.System, opts Options) *Result {
	res, err := Verify(ctx, sys, opts)
	switch l := explore.LimitCause(ctx); {
	case err == nil:
		return res
	case l != nil:
		return &Result{Property: sys.Property, Verdict: trace.Unknown, Reason: l.Msg}
	}
	return &Result{Property: sys.Property, Verdict: trace.Unknown, Reason: err.Error()}
}

// Verify runs backward reachability on sys. Errors are reserved for models
// the engine cannot handle and solver failures; a search cut short is the
// verdict unknown.
func Verify(ctx context.Context, sys *system.System, opts Options) (*Result, error) {
	e, err := newEngine(sys, opts)
	if err != nil {
		return nil, err
	}
	defer func() { e.smt.close() }()
	why, err := e.noRun()
	if err != nil {
		return nil, err
	}
	if why != "" {
		return e.finish(&Result{Property: sys.Property}, outcome{verdict: trace.Unknown, reason: why, refuted: -1}, nil), nil
	}
	if opts.Approx > 0 {
		limit := opts.MaxOracleStates
		if limit == 0 {
			limit = 2000000
		}
		o, err := newOracle(ctx, sys, opts.Approx, limit)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return &Result{Property: sys.Property, Verdict: trace.Unknown, Reason: stoppedExploring(ctx, opts.Approx), Stats: e.stats}, nil
			}
			e.warnings = append(e.warnings, fmt.Sprintf("no invariants guessed: %v", err))
		default:
			e.oracle = o
			e.stats.OracleStates = int64(o.states)
		}
		if e.oracle != nil && opts.Confirm > opts.Approx {
			o, err := newOracle(ctx, sys, opts.Confirm, limit)
			switch {
			case err != nil:
				if ctx.Err() != nil {
					return &Result{Property: sys.Property, Verdict: trace.Unknown, Reason: stoppedExploring(ctx, opts.Confirm), Stats: e.stats}, nil
				}
				e.warnings = append(e.warnings, fmt.Sprintf("candidates not confirmed on %d processes: %v", opts.Confirm, err))
			default:
				e.confirm = o
				e.stats.OracleStates += int64(o.states)
			}
		}
	}
	res, err := e.run(ctx)
	var sf *solverFailure
	if errors.As(err, &sf) {
		return e.finish(&Result{Property: sys.Property}, outcome{verdict: trace.Unknown, reason: sf.Error(), refuted: -1}, nil), nil
	}
	return res, err
}

func newEngine(sys *system.System, opts Options) (*engine, error) {
	if opts.MaxNodes == 0 {
		opts.MaxNodes = 200000
	}
	if opts.LemmaBudget == 0 {
		opts.LemmaBudget = 30
	}
	if opts.ApproxLits == 0 {
		opts.ApproxLits = 3
	}
	if opts.ApproxProcs == 0 {
		opts.ApproxProcs = max(1, opts.Approx-1)
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = time.Second
	}
	voc := &vocabulary{sys: sys}
	for _, v := range sys.Vars {
		lo, hasLo, hi, hasHi := v.Sort.Bounds()
		d := domain{-inf, inf}
		if hasLo {
			d.lo = lo
		}
		if hasHi {
			d.hi = hi
		}
		voc.doms = append(voc.doms, d)
	}
	e := &engine{sys: sys, voc: voc, solver: newSolver(voc), opts: opts, initCache: map[int]dnf{}, start: time.Now(), tried: map[string]bool{}}
	e.lastProg = e.start
	e.declared = append([]domain(nil), voc.doms...)
	if err := e.axioms(); err != nil {
		return nil, err
	}
	for _, t := range sys.Trans {
		it, err := compileTrans(t, len(sys.Vars))
		if err != nil {
			return nil, fmt.Errorf("transition %s: %v", t.Name, err)
		}
		e.trans = append(e.trans, it)
	}
	if sys.Init != nil {
		pq, err := compileQuant(sys.Init)
		if err != nil {
			return nil, fmt.Errorf("initial formula: %v", err)
		}
		e.init = pq
	}
	for _, q := range sys.Unsafe {
		cs, err := e.cubes(q)
		if err != nil {
			return nil, fmt.Errorf("unsafe formula: %v", err)
		}
		for _, c := range cs {
			e.roots = append(e.roots, root{c: c, candidate: -1})
		}
	}
	if !opts.IgnoreCandidates {
		for i, q := range sys.Candidates {
			cs, err := e.cubes(q)
			if err != nil {
				return nil, fmt.Errorf("candidate invariant: %v", err)
			}
			for _, c := range cs {
				e.roots = append(e.roots, root{c: c, candidate: i})
			}
		}
	}
	return e, nil
}

// identity returns the binding of slots 0..k-1 to process variables 0..k-1.
func identity(k int) []int {
	b := make([]int, k+2)
	for i := range b {
		b[i] = i
	}
	return b
}

// cubes turns an existential formula into cubes.
func (e *engine) cubes(q *system.Quant) ([]*cube, error) {
	pq, err := compileQuant(q)
	if err != nil {
		return nil, err
	}
	d, err := e.voc.instForm(pq.body, identity(pq.k), false)
	if err != nil {
		return nil, err
	}
	var out []*cube
	for _, conj := range d {
		if c, ok := e.makeCube(pq.k, conj); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// axioms narrows the domains of arrays with the unit axioms (∀x. a[x] < 8)
// and keeps the other axioms as forbidden cubes: ∀x̄. φ excludes every
// cube that entails a disjunct of ¬φ.
func (e *engine) axioms() error {
	var pqs []*pquant
	for _, q := range e.sys.Axioms {
		pq, err := compileQuant(q)
		if err != nil {
			return fmt.Errorf("system axiom: %v", err)
		}
		pqs = append(pqs, pq)
	}
	for changed := true; changed; {
		changed = false
		e.forbidden = e.forbidden[:0]
		for _, pq := range pqs {
			d, err := e.voc.instForm(pq.body, identity(pq.k), true)
			if err != nil {
				return fmt.Errorf("system axiom: %v", err)
			}
			for _, conj := range d {
				if len(conj) == 1 && conj[0].y == 0 && !conj[0].x.isProc() && e.narrow(conj[0]) {
					changed = true
					continue
				}
				if c, ok := e.voc.normalize(pq.k, conj); ok {
					e.forbidden = append(e.forbidden, c)
				}
			}
		}
	}
	return nil
}

// narrow excludes the values of l from its variable's domain when they
// form an end of it.
func (e *engine) narrow(l lit) bool {
	v := l.x.v()
	d := &e.voc.doms[v]
	old := *d
	switch l.op {
	case opLe:
		d.lo = max(d.lo, l.c+1)
	case opGe:
		d.hi = min(d.hi, l.c-1)
	case opEq:
		if l.c == d.lo {
			d.lo++
		} else if l.c == d.hi {
			d.hi--
		}
	case opNe:
		d.lo, d.hi = max(d.lo, l.c), min(d.hi, l.c)
	}
	return *d != old
}

// makeCube normalizes lits into a cube and checks it is satisfiable.
func (e *engine) makeCube(n int, lits []lit) (*cube, bool) {
	c, ok := e.voc.normalize(n, lits)
	if !ok {
		return nil, false
	}
	e.stats.LocalChecks++
	if st, _ := e.solver.check(c.lits, false); st == unsat {
		return nil, false
	}
	return c, true
}

// initDNF is the initial formula instantiated for n processes.
func (e *engine) initDNF(n int) (dnf, error) {
	if d, ok := e.initCache[n]; ok {
		return d, nil
	}
	acc := dTrue
	if e.init != nil {
		k := e.init.k
		bind := make([]int, k+2)
		var rec func(i int) error
		rec = func(i int) error {
			if i == k {
				d, err := e.voc.instForm(e.init.body, bind, false)
				if err != nil {
					return err
				}
				acc, err = and(acc, d)
				return err
			}
			for p := 0; p < n; p++ {
				bind[i] = p
				if err := rec(i + 1); err != nil {
					return err
				}
			}
			return nil
		}
		if k > 0 && n == 0 {
			// No process: the conjuncts about globals alone still hold.
			d, err := e.voc.instForm(globalPart(e.init.body), bind, false)
			if err != nil {
				return nil, err
			}
			acc = d
		} else if err := rec(0); err != nil {
			return nil, err
		}
	}
	e.initCache[n] = acc
	return acc, nil
}

// globalPart keeps the top-level conjuncts of f that mention no process.
func globalPart(f *pform) *pform {
	var args []*pform
	conj := []*pform{f}
	if f.kind == system.And {
		conj = f.args
	}
	for _, a := range conj {
		if !mentionsProc(a) {
			args = append(args, a)
		}
	}
	return &pform{kind: system.And, args: args}
}

func mentionsProc(f *pform) bool {
	if f.kind == system.Lit {
		return f.l.kind == system.ProcID || f.l.local || f.r.kind == system.ProcID || f.r.local
	}
	for _, a := range f.args {
		if mentionsProc(a) {
			return true
		}
	}
	return false
}

// meetsInit reports whether c has an initial state, with the values of a
// witness.
func (e *engine) meetsInit(c *cube) (bool, map[atom]int64, error) {
	d, err := e.initDNF(c.n)
	if err != nil {
		return false, nil, err
	}
	unsure := false
	for _, conj := range d {
		lits := append(append([]lit(nil), c.lits...), conj...)
		nc, ok := e.voc.normalize(c.n, lits)
		if !ok {
			continue
		}
		e.stats.LocalChecks++
		st, model := e.solver.check(nc.lits, true)
		switch st {
		case sat:
			return true, model, nil
		case undecided:
			unsure = true
		}
	}
	if unsure {
		return false, nil, fmt.Errorf("the local solver could not decide whether a cube meets the initial states")
	}
	return false, nil, nil
}

// covered is the fixpoint check: is c covered by the axioms or the visited
// cubes?
func (e *engine) covered(ctx context.Context, c *cube, visited []*node) (bool, error) {
	e.stats.FixpointChecks++
	for _, f := range e.forbidden {
		if e.covers(f, c, false) {
			return true, nil
		}
	}
	for _, ls := range [][]*cube{e.invs, e.lemmas} {
		for _, f := range ls {
			if e.covers(f, c, true) {
				return true, nil
			}
		}
	}
	for _, d := range visited {
		if !d.dead && e.covers(d.c, c, true) {
			return true, nil
		}
	}
	// The instances of the axioms, lemmas and visited cubes whose literals
	// c does not contradict (the others cannot contain a state of c), as
	// clauses; c is covered when c and the negations of all of them are
	// unsatisfiable. Case splitting decides the usual few hundred; beyond
	// localLimit the SMT solver gets them all, up to smtLimit.
	const localLimit, smtLimit = 4096, 1 << 16
	var clauses [][]lit
	over := false
	add := func(d *cube, injective bool) (covered bool) {
		cls, cov, o := e.instances(d, c, injective, smtLimit-len(clauses))
		over = over || o
		clauses = append(clauses, cls...)
		return cov
	}
	for _, f := range e.forbidden {
		if add(f, false) {
			return true, nil
		}
	}
	for _, ls := range [][]*cube{e.invs, e.lemmas} {
		for _, f := range ls {
			if add(f, true) {
				return true, nil
			}
		}
	}
	for _, d := range visited {
		if d.dead || d.c.n > c.n {
			continue
		}
		if add(d.c, true) {
			return true, nil
		}
	}
	if len(clauses) == 0 || over {
		// Too many instances even for the solver: not covered, which
		// only costs work.
		return false, nil
	}
	if len(clauses) <= localLimit {
		budget := 300
		if e.smt != nil && !e.bounded {
			// Once the solver runs, a query takes it a few
			// milliseconds, while a case split tests every open clause
			// at each branch: over a few hundred clauses, a split that
			// runs out of 300 branches costs more than the query it
			// then makes anyway. The budget shrinks with the clauses.
			budget = min(300, max(30, 10000/len(clauses)))
		}
		switch e.coverLocal(c, clauses, &budget) {
		case unsat:
			e.stats.CoveredLocal++
			return true, nil
		case sat:
			return false, nil
		}
	}
	if e.bounded {
		return false, nil
	}
	if e.smt == nil {
		// The solver starts on first use: most searches never need it.
		if e.opts.NoSMT || e.noSMT {
			return false, nil
		}
		sc, err := newSMTCheck(ctx, e.voc, e.opts.Solver)
		if err != nil {
			if !errors.Is(err, smt.ErrNoSolver) {
				return false, err
			}
			e.noSMT = true
			e.warnings = append(e.warnings, fmt.Sprintf("%v: fixpoint checks that case splitting cannot settle count as not covered", err))
			return false, nil
		}
		e.smt = sc
	}
	e.stats.SMTCalls++
	ok, err := e.smt.covered(ctx, c, clauses)
	if ok {
		e.stats.CoveredSMT++
	}
	return ok, err
}

type outcome struct {
	verdict trace.Verdict
	reason  string
	refuted int   // a candidate found reachable, or -1
	banned  *cube // a guess found reachable
	hit     *node
	model   map[atom]int64
}

func (e *engine) progress(visited, queued int) {
	if e.opts.Progress == nil || time.Since(e.lastProg) < e.opts.ProgressEvery {
		return
	}
	e.lastProg = time.Now()
	s := e.stats
	s.Nodes = int64(visited)
	s.Seconds = time.Since(e.start).Seconds()
	e.opts.Progress(s)
}

// search runs backward reachability from the property and the candidates
// that are still in play.
func (e *engine) search(ctx context.Context, inPlay map[int]bool, property bool) (outcome, error) {
	var queue []*node
	for i, r := range e.roots {
		if r.candidate >= 0 && !inPlay[r.candidate] || r.candidate < 0 && !property {
			continue
		}
		queue = append(queue, &node{c: r.c, tr: -1, root: i})
	}
	var visited []*node
	var guesses []*cube
	live := 0
	for head := 0; head < len(queue); head++ {
		nd := queue[head]
		queue[head] = nil
		if head&63 == 0 {
			if err := ctx.Err(); err != nil {
				return outcome{verdict: trace.Unknown, reason: e.stopped(ctx), refuted: -1}, nil
			}
			e.progress(live, len(queue)-head)
		}
		if nd.added {
			if !nd.dead {
				if err := e.expand(nd, &queue); err != nil {
					return outcome{}, err
				}
			}
			continue
		}
		hit, model, err := e.meetsInit(nd.c)
		if err != nil {
			return outcome{}, err
		}
		if hit {
			if nd.root >= len(e.roots) {
				return outcome{refuted: -1, banned: guesses[nd.root-len(e.roots)], hit: nd, model: model}, nil
			}
			if c := e.roots[nd.root].candidate; c >= 0 {
				return outcome{refuted: c, hit: nd}, nil
			}
			return outcome{verdict: trace.Violated, refuted: -1, hit: nd, model: model}, nil
		}
		cov, err := e.covered(ctx, nd.c, visited)
		if err != nil {
			if ctx.Err() != nil {
				return outcome{verdict: trace.Unknown, reason: e.stopped(ctx), refuted: -1}, nil
			}
			return outcome{}, err
		}
		if cov {
			e.stats.Covered++
			continue
		}
		if e.work >= e.opts.MaxNodes {
			return outcome{verdict: trace.Unknown, refuted: -1, reason: e.limitReason()}, nil
		}
		if e.oracle != nil && nd.parent != nil && property {
			a, err := e.approximate(ctx, nd.c)
			if err != nil {
				return outcome{}, err
			}
			if e.lemmaCovers(nd.c) {
				e.stats.Covered++
				continue
			}
			if e.work >= e.opts.MaxNodes {
				// The lemma proofs used up the limit.
				return outcome{verdict: trace.Unknown, refuted: -1, reason: e.limitReason()}, nil
			}
			if a != nil {
				// The guess covers the cube. It joins the visited set now,
				// so that it covers later cubes at once, and is expanded
				// as a root of its own.
				if e.opts.Log != nil {
					fmt.Fprintf(e.opts.Log, "guess %d for d=%d: %s\n", len(guesses), nd.depth, e.voc.cubeString(a))
				}
				g := &node{c: a, tr: -1, root: len(e.roots) + len(guesses), added: true}
				guesses = append(guesses, a)
				visited = e.addVisited(visited, g, &live)
				queue = append(queue, g)
				continue
			}
		}
		visited = e.addVisited(visited, nd, &live)
		e.stats.Depth = max(e.stats.Depth, nd.depth)
		e.stats.MaxProcs = max(e.stats.MaxProcs, nd.c.n)
		if err := e.expand(nd, &queue); err != nil {
			return outcome{}, err
		}
	}
	e.stats.Nodes = int64(live)
	e.stats.Guesses = len(guesses)
	e.guesses = guesses
	if e.tooMany {
		return outcome{verdict: trace.Unknown, refuted: -1,
			reason: fmt.Sprintf("pre-images needed more than %d processes in a cube", maxProcs)}, nil
	}
	return outcome{verdict: trace.Holds, refuted: -1}, nil
}

// limitReason says that the node limit stopped the run.
func (e *engine) limitReason() string {
	r := fmt.Sprintf("node limit reached: %d cubes visited without a fixpoint", e.work)
	if e.stats.ProofNodes > 0 {
		r += fmt.Sprintf(" (%d of them by lemma proofs)", e.stats.ProofNodes)
	}
	return r
}

// addVisited adds nd to the visited set, dropping the cubes it covers.
func (e *engine) addVisited(visited []*node, nd *node, live *int) []*node {
	kept := visited[:0]
	for _, d := range visited {
		if e.covers(nd.c, d.c, true) {
			d.dead = true
			e.stats.Deleted++
			*live--
			continue
		}
		kept = append(kept, d)
	}
	*live++
	e.work++
	e.stats.Nodes = int64(*live)
	if e.opts.Log != nil {
		tn := "root"
		if nd.tr >= 0 {
			tn = e.trans[nd.tr].t.Name
		}
		e.visits++
		fmt.Fprintf(e.opts.Log, "node %d d=%d root=%d via %s%v: %s\n", e.visits, nd.depth, nd.root, tn, nd.params, e.voc.cubeString(nd.c))
	}
	return append(kept, nd)
}

// expand queues the pre-images of nd under every transition.
func (e *engine) expand(nd *node, queue *[]*node) error {
	for ti, tr := range e.trans {
		err := e.preimages(tr, nd.c, func(p preimage) {
			e.stats.Generated++
			*queue = append(*queue, &node{c: p.c, parent: nd, tr: ti, params: p.params, root: nd.root,
				depth: nd.depth + 1, approx: nd.approx || p.approx || tr.uguard != nil})
		})
		if err != nil {
			return fmt.Errorf("pre-image of %s: %v", tr.t.Name, err)
		}
	}
	return nil
}

func (e *engine) run(ctx context.Context) (*Result, error) {
	res := &Result{Property: e.sys.Property}
	inPlay := map[int]bool{}
	for _, r := range e.roots {
		if r.candidate >= 0 {
			inPlay[r.candidate] = true
		}
	}
	// MCMT's order: the suggested invariants are proved first, on their
	// own, and then used like proved lemmas; when they cannot be proved
	// apart from the property, they are proved together with it.
	together := true
	if len(inPlay) > 0 {
		out, err := e.loop(ctx, inPlay, false, res)
		if err != nil {
			return nil, err
		}
		e.stats.InvNodes = e.stats.Nodes
		if out.verdict == trace.Holds {
			together = false
			for i, r := range e.roots {
				if r.candidate >= 0 && inPlay[r.candidate] {
					e.invs = append(e.invs, e.roots[i].c)
				}
			}
			if e.opts.Log != nil {
				fmt.Fprintf(e.opts.Log, "suggested invariants proved: %d\n", len(e.invs))
			}
		} else if ctx.Err() != nil {
			out.reason = e.stopped(ctx)
			return e.finish(res, out, inPlay), nil
		}
	}
	roots := inPlay
	if !together {
		roots = map[int]bool{}
	}
	out, err := e.loop(ctx, roots, true, res)
	if err != nil {
		return nil, err
	}
	return e.finish(res, out, inPlay), nil
}

// loop runs the search until no guess or candidate is refuted.
func (e *engine) loop(ctx context.Context, inPlay map[int]bool, property bool, res *Result) (outcome, error) {
	for {
		out, err := e.search(ctx, inPlay, property)
		if err != nil {
			return out, err
		}
		if out.banned != nil {
			if e.opts.Log != nil {
				fmt.Fprintf(e.opts.Log, "banned: %s\n", e.voc.cubeString(out.banned))
			}
			e.banned = append(e.banned, out.banned)
			e.stats.Banned++
			// The run that reaches the guess is real when it replays:
			// its states teach the oracle what larger instances reach.
			if states, conc := e.reachedStates(out.hit, out.model); states != nil && e.oracle != nil {
				e.oracle.learn(conc, states)
			}
			e.stats.Restarts++
			continue
		}
		if out.refuted < 0 {
			return out, nil
		}
		delete(inPlay, out.refuted)
		e.stats.Refuted++
		e.stats.Restarts++
		res.Refuted = append(res.Refuted, describe(e.sys.Candidates[out.refuted], out.refuted))
	}
}

// finish fills in the result of the last search.
func (e *engine) finish(res *Result, out outcome, inPlay map[int]bool) *Result {
	if e.smt != nil {
		e.stats.SMTCalls = e.smt.calls
	}
	e.stats.LocalChecks = max(e.stats.LocalChecks, e.solver.calls)
	for i := range e.sys.Candidates {
		if inPlay[i] && out.verdict == trace.Holds {
			res.Proved = append(res.Proved, describe(e.sys.Candidates[i], i))
		}
	}
	e.stats.Invariants = len(res.Proved)
	res.Verdict, res.Reason = out.verdict, out.reason
	if out.verdict == trace.Violated {
		cx, why := e.replay(out.hit, out.model)
		if cx == nil {
			res.Verdict = trace.Unknown
			res.Reason = why
		}
		res.Trace = cx
	}
	for _, l := range e.lemmas {
		res.Lemmas = append(res.Lemmas, e.voc.cubeString(l))
	}
	for _, g := range e.guesses {
		res.Guesses = append(res.Guesses, e.voc.cubeString(g))
	}
	res.Warnings = e.warnings
	e.stats.Seconds = time.Since(e.start).Seconds()
	res.Stats = e.stats
	return res
}

func describe(q *system.Quant, i int) string {
	name := strings.Join(strings.Fields(q.Name), " ")
	if name == "" {
		name = fmt.Sprintf("candidate %d", i+1)
	}
	return fmt.Sprintf("%s: %s", name, q.Body)
}

// stopped is the reason of a search that ctx ended: the cause ctx was
// cancelled with (ftmc verify's time and memory limits say which limit,
// with the figure reached) and the cubes visited by then.
func (e *engine) stopped(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == ctx.Err() {
		return "stopped: " + cause.Error()
	}
	return fmt.Sprintf("%v after %d cubes", cause, e.stats.Nodes)
}

// stoppedExploring is the reason of a search that ctx ended while it
// explored the instance with k processes that candidate invariants come
// from, before any cube.
func stoppedExploring(ctx context.Context, k int) string {
	cause := context.Cause(ctx)
	if cause == ctx.Err() {
		return "stopped: " + cause.Error()
	}
	return fmt.Sprintf("%v while the instance with %s that candidate invariants come from was explored (--brab %d)", cause, system.Processes(int64(k)), k)
}
