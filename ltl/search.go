package ltl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"
	"unsafe"

	"ftmc/explore"
	"ftmc/state"
	"ftmc/trace"
)

// Predicate is an atomic proposition: it tells whether a model state (a
// state vector, valid only during the call) satisfies it. Front ends compile
// the atoms of a formula (Automaton.Atoms) into predicates.
type Predicate func(s []byte) bool

// Exclusive is an optional interface of a model with atomic sequences.
// Exclusive(s) reports that s lies inside an atomic sequence whose process
// can go on, so that only that process moves from s. Spin's never claim
// does not move from such states, and weak fairness does not count the
// other processes as blocked there; models without atomic sequences, or
// whose Next runs an atomic sequence as one step, need not implement it.
type Exclusive interface {
	Exclusive(s []byte) bool
}

// ProgressLabels is the optional interface a model implements for the
// non-progress cycle search: AtProgress(s) reports that some process is at
// a progress label in s.
type ProgressLabels interface {
	AtProgress(s []byte) bool
}

// Options control a product search. The zero value searches for acceptance
// cycles without fairness and without limits.
type Options struct {
	// Property names the verdict.
	Property string
	// Fairness restricts the search to weakly fair runs, as Spin's -f: a
	// cycle counts only when every process either moves in it or is
	// blocked at some state of it.
	Fairness bool
	// TimeLimit and MemoryLimit (bytes) end the search with verdict
	// unknown; 0 means no limit.
	TimeLimit   time.Duration
	MemoryLimit int64
	// MemoryLimitFrom says where a default MemoryLimit comes from
	// (explore.Options), for the reason of a search that reaches it.
	MemoryLimitFrom string
	// Since, when set, is when TimeLimit started to run (explore.Options).
	Since time.Time
	// MaxDepth bounds the depth-first stack (0: no bound). A search cut
	// this way says unknown unless it finds a violation.
	MaxDepth int
	// MaxStates bounds the product states stored (0: no bound): past it,
	// at the next check of the limits, the search stops with verdict
	// unknown. Unlike TimeLimit it cuts the same search at the same place
	// however busy the machine is.
	MaxStates int64
	// ExpectedStates sizes the state store up front.
	ExpectedStates int
	// Compress keeps the product states tree-compressed
	// (explore.NewCompressedStore).
	Compress bool
	// Reducer, when set, asks for partial-order reduction (see reduce.go):
	// the caller vouches that the property cannot tell a run from one
	// that differs by the order of the steps Reducer calls safe (it has no
	// next-time operator, and no proposition reads what a safe step
	// changes). The search does not reduce under Fairness.
	Reducer state.Reducer
	// Failures makes a failing transition of the model (an assertion, a
	// run-time error: state.Sink.Fail) a violation, as pan -a reports
	// them, with a counterexample that ends in it. Without it such a
	// transition has no successor, and is the safety search's business.
	Failures bool
	// NoStutter makes a state without successors the end of its runs
	// rather than a state that repeats forever: only the infinite runs of
	// the model count, and a run that ends in a deadlock violates no
	// property (ByMC's semantics of parametric models, where a
	// counterexample to liveness is a lasso whose loop has a step). The
	// bad prefixes of a safety property are still found wherever they
	// end: its violation is the reaching of a bad state.
	NoStutter bool
	// Fault, when set, is called after the atoms of a state have been
	// evaluated: a non-empty message says that one could not be (an array
	// index out of bounds), which is a run-time error in that state, as
	// with Spin. The call clears it.
	Fault func() string
	// Progress, when set, is called about every ProgressInterval (default
	// one second) with the search's figures.
	Progress         func(explore.Progress)
	ProgressInterval time.Duration
}

// limits are the search's limits in the words of the explicit search, whose
// watch (explore.Watch) the product search shares.
func (o Options) limits() explore.Options {
	return explore.Options{TimeLimit: o.TimeLimit, Since: o.Since, MemoryLimit: o.MemoryLimit, MemoryLimitFrom: o.MemoryLimitFrom,
		ExpectedStates: o.ExpectedStates, Compress: o.Compress}
}

// Check searches the synchronous product of m and the automaton a (usually
// the translation of a negated property, or a never claim) for an accepting
// run, with Spin's nested depth-first search. atoms[i] evaluates
// a.Atoms[i]. A violated verdict comes with a lasso counterexample
// (trace.Counterexample.LoopStart marks the cycle); holds means the whole
// product was explored; a search cut short says unknown.
//
// The product follows Spin: the automaton reads each model state before the
// model leaves it; a state without successors repeats forever (so finite
// runs count); an accepting state of a never claim with no more
// statements accepts at once.
func Check(ctx context.Context, m state.Model, a *Automaton, atoms []Predicate, opts Options) (trace.Result, trace.Stats, error) {
	if err := a.Validate(); err != nil {
		return trace.Result{}, trace.Stats{}, err
	}
	if len(atoms) != len(a.Atoms) {
		return trace.Result{}, trace.Stats{}, fmt.Errorf("ltl: %d predicates for %d propositions", len(atoms), len(a.Atoms))
	}
	if len(a.States) > 1<<16-1 {
		return trace.Result{}, trace.Stats{}, fmt.Errorf("ltl: automaton has %d states; at most 65535 are supported", len(a.States))
	}
	a = withoutEnds(a)
	if opts.Failures {
		a = withDeadClaim(a)
	}
	if sink, ok := sinks(a); ok {
		return checkPrefix(ctx, m, a, sink, atoms, opts)
	}
	s := newSearch(ctx, m, a, atoms, opts)
	s.kind = state.KindAcceptCycle
	s.noStutter = opts.NoStutter
	return s.run()
}

// CheckNonProgress searches m for non-progress cycles, as Spin's -l: an
// infinite run that from some point on passes no progress label. m must
// implement ProgressLabels. Unlike an acceptance cycle, a state without
// successors is no non-progress cycle.
func CheckNonProgress(ctx context.Context, m state.Model, opts Options) (trace.Result, trace.Stats, error) {
	pl, ok := m.(ProgressLabels)
	if !ok {
		return trace.Result{}, trace.Stats{}, errors.New("ltl: the model cannot tell progress states (it does not implement ltl.ProgressLabels)")
	}
	// Spin's built-in claim: <>[] np_, where np_ holds when no process is
	// at a progress label.
	a := &Automaton{
		Atoms: []string{"np_"},
		States: []State{
			{Name: "T0_init", Edges: []Edge{{To: 0}, {Guard: Cube{Pos: 1}, To: 1}}},
			{Name: "accept_np", Accepting: true, Edges: []Edge{{Guard: Cube{Pos: 1}, To: 1}}},
		},
	}
	np := func(v []byte) bool { return !pl.AtProgress(v) }
	if opts.Property == "" {
		opts.Property = "non-progress"
	}
	s := newSearch(ctx, m, a, []Predicate{np}, opts)
	s.kind = state.KindNonProgress
	s.noStutter = true
	return s.run()
}

// withDeadClaim adds to a state that the automaton enters where it would
// block: the property can no longer be violated on this run, but a failing
// step of the model still can (Options.Failures), so the search goes on
// with the model alone. Without it, a property whose automaton blocks at
// once, as the negation of [] true, would explore nothing and miss a
// failing assertion.
func withDeadClaim(a *Automaton) *Automaton {
	b := *a
	b.States = append([]State(nil), a.States...)
	dead := len(b.States)
	for i := range b.States {
		if !slices.ContainsFunc(b.States[i].Edges, func(e Edge) bool { return e.Else }) {
			b.States[i].Edges = append(slices.Clip(b.States[i].Edges), Edge{Else: true, To: dead})
		}
	}
	b.States = append(b.States, State{Name: "dead", Edges: []Edge{{To: dead}}})
	return &b
}

// withoutEnds replaces each End state (the claim has terminated, which
// accepts) by an accepting state that loops on true: every run is infinite
// here, since terminal model states repeat.
func withoutEnds(a *Automaton) *Automaton {
	has := false
	for _, s := range a.States {
		has = has || s.End
	}
	if !has {
		return a
	}
	b := *a
	b.States = append([]State(nil), a.States...)
	for i := range b.States {
		if b.States[i].End {
			b.States[i] = State{Name: b.States[i].Name, Accepting: true, Edges: []Edge{{To: i}}}
		}
	}
	return &b
}

// Product states are the model's vector followed by the automaton state
// (2 bytes) and, under fairness, the fairness counter (2 bytes): fairWait
// (waiting for an accepting state), pid+1 (waiting for process pid to move
// or to be blocked), or fairDone (every process had its turn since the last
// accepting state). This is Spin's (k+2)-copy construction, with the copies
// in the state vector; the accepting product states are the fairDone ones.
const (
	fairWait = 0
	fairDone = 0xffff
)

// stutter marks the step of a state without successors that repeats.
var stutter = state.Trans{Proc: -1, ID: -1, Aux: -1}

const (
	fVisited = 1 << iota // expanded by the outer search
	fOnStack             // on the outer search's stack
	fInner               // visited by an inner search
)

type frame struct {
	idx              explore.Index
	tr               state.Trans // the step that led here
	first, next, end int         // successors: succIdx[first:end], next to try at next
}

type search struct {
	ctx       context.Context
	m         state.Model
	a         *Automaton
	atoms     []Predicate
	opts      Options
	excl      Exclusive
	kind      string
	noStutter bool
	sfx       int // bytes after the model's vector

	store   *explore.Store
	flags   []uint8
	reduce  *reduction // nil: every state is expanded fully
	succIdx []explore.Index
	succTr  []state.Trans
	outer   []frame
	inner   []frame
	inInner bool // the inner search is expanding

	// scratch for one expansion
	cur     []byte
	vec     []byte
	mvec    []byte // the model's successors, back to back
	mend    []int
	mtr     []state.Trans
	enabled [4]uint64 // pids with a successor
	maxPid  int
	claim   []int

	transitions, matched, depth int64
	truncated                   bool
	stop                        string
	lasso                       []explore.Index
	lassoTr                     []state.Trans
	// a failing transition or proposition (Options.Failures, Fault): the
	// state it fails in, and why
	failKind, failMsg string
	failTr            state.Trans
	failState         bool // set when the failure is a proposition's, not a step's
	loopAt            int

	watch      *explore.Watch
	budget     int
	lastReport time.Time
	lastStates int64
}

func newSearch(ctx context.Context, m state.Model, a *Automaton, atoms []Predicate, opts Options) *search {
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = time.Second
	}
	s := &search{ctx: ctx, m: m, a: a, atoms: atoms, opts: opts, sfx: 2, budget: 1 << 12}
	if opts.Fairness {
		s.sfx = 4
	}
	s.excl, _ = m.(Exclusive)
	if opts.Reducer != nil && !opts.Fairness {
		s.reduce = &reduction{model: opts.Reducer}
	}
	s.store = opts.limits().NewStore()
	s.watch = explore.NewWatch(ctx, s.store, opts.limits())
	s.lastReport = s.watch.Start()
	return s
}

func (s *search) run() (trace.Result, trace.Stats, error) {
	defer s.store.Free()
	defer s.watch.Close()
	var inits [][]byte
	err := s.m.Initial(func(v []byte) { inits = append(inits, append([]byte(nil), v...)) })
	if err != nil {
		return trace.Result{Property: s.opts.Property, Verdict: trace.Unknown, Reason: err.Error()}, s.stats(), err
	}
	if len(inits) == 0 {
		err := errors.New(s.m.Name() + ": the model has no initial state")
		return trace.Result{Property: s.opts.Property, Verdict: trace.Unknown, Reason: err.Error()}, s.stats(), err
	}
	s.poll()
	for _, v := range inits {
		if s.stop != "" {
			break
		}
		vec := s.product(v, s.a.Init, fairWait)
		i, _ := s.store.Insert(vec)
		if i == explore.NoIndex {
			s.stopFull()
			break
		}
		s.grow()
		if s.flags[i]&fVisited == 0 {
			s.dfs(i)
		}
		if s.lasso != nil || s.stop != "" {
			break
		}
	}
	return s.result(), s.stats(), nil
}

func (s *search) product(model []byte, q int, fair uint16) []byte {
	s.vec = append(s.vec[:0], model...)
	s.vec = binary.LittleEndian.AppendUint16(s.vec, uint16(q))
	if s.opts.Fairness {
		s.vec = binary.LittleEndian.AppendUint16(s.vec, fair)
	}
	return s.vec
}

// split returns the parts of a product vector.
func (s *search) split(v []byte) (model []byte, q int, fair uint16) {
	n := len(v) - s.sfx
	q = int(binary.LittleEndian.Uint16(v[n:]))
	if s.opts.Fairness {
		fair = binary.LittleEndian.Uint16(v[n+2:])
	}
	return v[:n], q, fair
}

func (s *search) accepting(i explore.Index) bool {
	_, q, fair := s.split(s.store.Get(i))
	if s.opts.Fairness {
		return fair == fairDone
	}
	return s.a.States[q].Accepting
}

// grow makes room for the flags of every stored state.
func (s *search) grow() {
	for len(s.flags) < s.store.Len() {
		s.flags = append(s.flags, 0)
	}
	if s.reduce != nil {
		for len(s.reduce.choice) < len(s.flags) {
			s.reduce.choice = append(s.reduce.choice, 0)
		}
	}
}

// Succ and Fail collect the model's successors (state.Sink).
func (s *search) Succ(t state.Trans, v []byte) {
	s.mvec = append(s.mvec, v...)
	s.mend = append(s.mend, len(s.mvec))
	s.mtr = append(s.mtr, t)
	if t.Proc >= 0 && t.Proc < 256 {
		s.enabled[t.Proc>>6] |= 1 << (t.Proc & 63)
		if int(t.Proc) > s.maxPid {
			s.maxPid = int(t.Proc)
		}
	}
}

// Fail: a failing transition (an assertion, a run-time error) has no
// successor in the product; it is a violation with Options.Failures, else
// the safety search reports it.
func (s *search) Fail(t state.Trans, kind, msg string) {
	if s.opts.Failures && s.failKind == "" {
		s.failKind, s.failMsg, s.failTr = kind, msg, t
	}
}

func (s *search) isEnabled(pid int) bool {
	return pid < 256 && s.enabled[pid>>6]&(1<<(pid&63)) != 0
}

// reading is what the automaton reads in a model state: the atoms' values
// (bit k: atoms[k]), and, with a fault hook (Options.Fault), those that
// could not be evaluated and why.
type reading struct {
	val, faulty uint64
	fault       string
}

func read(atoms []Predicate, fault func() string, model []byte) reading {
	var r reading
	for k, p := range atoms {
		if p(model) {
			r.val |= 1 << k
		}
		if fault == nil {
			continue
		}
		if msg := fault(); msg != "" {
			r.faulty |= 1 << k
			if r.fault == "" {
				r.fault = "a proposition of the property cannot be evaluated: " + msg
			}
		}
	}
	r.val &^= r.faulty
	return r
}

// next appends the automaton's moves from q on r to out. When they depend
// on a proposition that could not be evaluated, it also returns why: Spin's
// claim would have evaluated it, a run-time error. (One that does not
// matter there, as a[k] in [](k < 3 -> a[k] == 0) when k >= 3, Spin's
// claim skips.)
func (a *Automaton) next(q int, r reading, out []int) ([]int, string) {
	n := len(out)
	out = a.Next(q, r.val, out)
	if r.faulty == 0 {
		return out, ""
	}
	if bits.OnesCount64(r.faulty) > 8 {
		return out, r.fault
	}
	var alt []int
	for sub := r.faulty; sub != 0; sub = (sub - 1) & r.faulty {
		if alt = a.Next(q, r.val|sub, alt[:0]); !slices.Equal(out[n:], alt) {
			return out, r.fault
		}
	}
	return out, ""
}

// expand appends the product successors of state i to succIdx/succTr.
func (s *search) expand(i explore.Index) {
	s.cur = append(s.cur[:0], s.store.Get(i)...)
	model, q, fair := s.split(s.cur)
	r := read(s.atoms, s.opts.Fault, model)
	claim := func() bool {
		var fault string
		if s.claim, fault = s.a.next(q, r, s.claim[:0]); fault != "" {
			s.failKind, s.failMsg, s.failState = state.KindRuntime, fault, true
			return false
		}
		return len(s.claim) > 0 // else the claim blocks: this run is not accepted
	}
	excl := s.excl != nil && s.excl.Exclusive(model)
	if !excl && !claim() {
		return
	}
	s.mvec, s.mend, s.mtr = s.mvec[:0], s.mend[:0], s.mtr[:0]
	s.enabled = [4]uint64{}
	s.maxPid = -1
	s.m.Next(model, s)
	if len(s.mend) == 0 {
		if excl {
			// Atomicity is lost; the claim moves after all.
			excl = false
			if !claim() {
				return
			}
		}
		if s.noStutter {
			return
		}
		s.mvec = append(s.mvec, model...)
		s.mend = append(s.mend, len(s.mvec))
		s.mtr = append(s.mtr, stutter)
	}
	if excl {
		s.claim = append(s.claim[:0], q)
	} else if s.reduce != nil && s.mtr[0] != stutter {
		s.reduceTo(i, model)
	}
	// Fairness: the counter before the step (Spin's rules 1 and 3 apply
	// only outside atomic sequences).
	c := fair
	if s.opts.Fairness && !excl {
		if c == fairDone {
			c = fairWait
		}
		if c == fairWait && s.a.States[q].Accepting {
			c = 1
		}
		if c != fairWait {
			// Blocked processes have their turn for free.
			pid := int(c) - 1
			for pid <= s.maxPid && !s.isEnabled(pid) {
				pid++
			}
			if pid > s.maxPid {
				c = fairDone
			} else {
				c = uint16(pid + 1)
			}
		}
	}
	start := 0
	for k, end := range s.mend {
		next := s.mvec[start:end]
		start = end
		t := s.mtr[k]
		c2 := c
		if s.opts.Fairness && c != fairWait && c != fairDone && int(t.Proc) == int(c)-1 {
			c2 = c + 1
		}
		for _, q2 := range s.claim {
			j, _ := s.store.Insert(s.product(next, q2, c2))
			if j == explore.NoIndex {
				s.stopFull()
				return
			}
			s.transitions++
			s.succIdx = append(s.succIdx, j)
			s.succTr = append(s.succTr, t)
		}
	}
	s.grow()
	s.budget -= 1 + len(s.mend)
	if s.budget <= 0 {
		s.poll()
	}
}

// push expands state i and pushes it on stack, unless stack or the
// successors' slices would grow past the memory limit: a slice that grows
// is copied, and holds its old and new arrays for a moment, which took the
// search 25% past a limit of 50 MB between two samples of the memory.
// Then the search stops at the limit instead.
func (s *search) push(stack []frame, i explore.Index, t state.Trans) []frame {
	if !s.room(stack) {
		s.stopFull()
		return stack
	}
	first := len(s.succIdx)
	s.expand(i)
	return append(stack, frame{idx: i, tr: t, first: first, next: first, end: len(s.succIdx)})
}

// succSlack is how few free successor slots make room count the
// successors' slices as about to grow.
const succSlack = 256

// room reports whether the memory limit leaves room for stack, and for
// the successors' slices when they are nearly full, to grow (by a quarter,
// as append grows a large slice, while the old array is still held).
func (s *search) room(stack []frame) bool {
	var grow int64
	if len(stack) == cap(stack) {
		grow += int64(cap(stack)) * int64(unsafe.Sizeof(frame{}))
	}
	if cap(s.succIdx)-len(s.succIdx) < succSlack {
		grow += int64(cap(s.succIdx)) * int64(unsafe.Sizeof(explore.Index(0))+unsafe.Sizeof(state.Trans{}))
	}
	return grow == 0 || s.watch.Room(grow*5/4)
}

// pop drops the top frame and its successors.
func (s *search) pop(stack []frame) []frame {
	f := stack[len(stack)-1]
	s.succIdx = s.succIdx[:f.first]
	s.succTr = s.succTr[:f.first]
	return stack[:len(stack)-1]
}

// dfs is the outer search from root. States are checked for cycles in
// post-order: when an accepting state is done, an inner search looks for a
// path back to a state on the outer stack (Holzmann, Peled and Yannakakis's
// variant of Courcoubetis, Vardi, Wolper and Yannakakis's algorithm).
func (s *search) dfs(root explore.Index) {
	s.flags[root] |= fVisited | fOnStack
	s.outer = s.push(s.outer[:0], root, stutter)
	if s.failKind != "" {
		s.foundFail(false)
		return
	}
	for len(s.outer) > 0 && s.stop == "" {
		if d := int64(len(s.outer) - 1); d > s.depth {
			s.depth = d
		}
		f := &s.outer[len(s.outer)-1]
		if f.next < f.end {
			j, t := s.succIdx[f.next], s.succTr[f.next]
			f.next++
			if s.flags[j]&fVisited != 0 {
				s.matched++
				// A successor on the stack closes a cycle; when either end
				// is accepting, it is an accepting cycle (Schwoon and
				// Esparza's early detection).
				if s.flags[j]&fOnStack != 0 && (s.accepting(f.idx) || s.accepting(j)) {
					s.closeCycle(false, j, t)
					return
				}
				continue
			}
			if s.opts.MaxDepth > 0 && len(s.outer) >= s.opts.MaxDepth {
				s.truncated = true
				continue
			}
			s.flags[j] |= fVisited | fOnStack
			s.outer = s.push(s.outer, j, t)
			if s.failKind != "" {
				s.foundFail(false)
				return
			}
			continue
		}
		if s.accepting(f.idx) && s.innerDFS(f.idx) {
			return
		}
		s.flags[f.idx] &^= fOnStack
		s.outer = s.pop(s.outer)
	}
}

// innerDFS looks for a path from seed (the top of the outer stack) back to
// the outer stack.
func (s *search) innerDFS(seed explore.Index) bool {
	s.inInner = true
	defer func() { s.inInner = false }()
	s.inner = s.push(s.inner[:0], seed, stutter)
	for len(s.inner) > 0 && s.stop == "" {
		g := &s.inner[len(s.inner)-1]
		if g.next < g.end {
			j, t := s.succIdx[g.next], s.succTr[g.next]
			g.next++
			if s.flags[j]&fOnStack != 0 {
				s.closeCycle(true, j, t)
				return true
			}
			if s.flags[j]&fInner == 0 {
				s.flags[j] |= fInner
				s.inner = s.push(s.inner, j, t)
				if s.failKind != "" {
					s.foundFail(true)
					return true
				}
			}
			continue
		}
		s.inner = s.pop(s.inner)
	}
	return false
}

func (s *search) stackPos(j explore.Index) int {
	for k, f := range s.outer {
		if f.idx == j {
			return k
		}
	}
	return -1
}

// stackPath makes the outer stack, and with inner the inner one's after
// its seed, the counterexample's path.
func (s *search) stackPath(inner bool) {
	for _, f := range s.outer {
		s.lasso = append(s.lasso, f.idx)
		s.lassoTr = append(s.lassoTr, f.tr)
	}
	if inner {
		for _, g := range s.inner[1:] {
			s.lasso = append(s.lasso, g.idx)
			s.lassoTr = append(s.lassoTr, g.tr)
		}
	}
}

// foundFail: the path ends where a step or a proposition failed.
func (s *search) foundFail(inner bool) {
	s.stackPath(inner)
	s.loopAt = -1
}

// closeCycle: the step t to j, a state on the outer stack, closes the
// cycle (found by the outer search, or with inner by the inner one).
func (s *search) closeCycle(inner bool, j explore.Index, t state.Trans) {
	s.stackPath(inner)
	s.lasso = append(s.lasso, j)
	s.lassoTr = append(s.lassoTr, t)
	s.loopAt = s.stackPos(j)
}

func (s *search) stopFull() {
	if s.stop == "" {
		s.stop = s.watch.Full()
	}
}

func (s *search) poll() {
	s.budget = 1 << 12
	now := time.Now()
	if s.stop == "" {
		s.stop = s.watch.Stop(now)
	}
	if s.stop == "" && s.opts.MaxStates > 0 && int64(s.store.Len()) > s.opts.MaxStates {
		s.stop = fmt.Sprintf("state limit %d reached", s.opts.MaxStates)
	}
	if s.opts.Progress != nil && now.Sub(s.lastReport) >= s.opts.ProgressInterval {
		n := int64(s.store.Len())
		p := explore.Progress{
			States: n, Matched: s.matched, Transitions: s.transitions,
			Depth: int64(len(s.outer) + len(s.inner)), MemoryBytes: s.watch.Memory(), Elapsed: now.Sub(s.watch.Start()),
		}
		if dt := now.Sub(s.lastReport).Seconds(); dt > 0 {
			p.StatesPerSec = float64(n-s.lastStates) / dt
		}
		s.lastReport, s.lastStates = now, n
		s.opts.Progress(p)
	}
}

func (s *search) complete() bool { return s.lasso == nil && s.stop == "" && !s.truncated }

func (s *search) result() trace.Result {
	r := trace.Result{Property: s.opts.Property}
	switch {
	case s.lasso != nil:
		r.Verdict = trace.Violated
		r.Kind = s.kind
		if s.failKind != "" {
			r.Kind = s.failKind
		}
		r.Counterexample = s.counterexample()
	default:
		r.Verdict, r.Reason = explore.Undecided(s.stop, s.truncated, s.opts.MaxDepth, s.store.Len())
	}
	return r
}

func (s *search) stats() trace.Stats {
	st := s.watch.Stats(int64(cap(s.flags)))
	st.Transitions, st.Matched, st.Depth = s.transitions, s.matched, s.depth
	st.Complete = s.complete()
	switch {
	case s.reduce != nil:
		st.Reduction, st.AmpleStates = "partial-order", s.reduce.ample
	case s.opts.Reducer != nil:
		st.Reduction = "none"
	}
	return st
}

// counterexample turns the lasso of product states into model steps.
func (s *search) counterexample() *trace.Counterexample {
	c := &trace.Counterexample{Kind: s.kind, LoopStart: s.loopAt, Steps: []trace.Step{}}
	switch {
	case s.failKind != "":
		c.Kind, c.Message = s.failKind, s.failMsg
	case s.kind == state.KindNonProgress:
		c.Message = "non-progress cycle: from the marked step on, the run repeats forever without passing a progress label"
	default:
		c.Message = "acceptance cycle: from the marked step on, the run repeats forever and violates the property"
	}
	if s.opts.Fairness && s.failKind == "" {
		c.Message += " (every process moves or is blocked in the cycle)"
	}
	models := make([][]byte, len(s.lasso))
	for k, i := range s.lasso {
		m, _, _ := s.split(s.store.Get(i))
		models[k] = append([]byte(nil), m...)
	}
	c.Initial = s.m.Decode(models[0])
	last := len(models) - 1
	for k := 1; k < len(models); k++ {
		from, to, t := models[k-1], models[k], s.lassoTr[k]
		if t == stutter {
			// From here on the model stays in its final state; the text
			// and JSON say so with a loop start after the last step.
			last = k - 1
			if c.LoopStart >= len(c.Steps) {
				c.LoopStart = len(c.Steps)
			}
			break
		}
		step := s.m.Explain(t, from, to)
		if len(step.Changes) == 0 {
			step.Changes = trace.Diff(s.m.Decode(from), s.m.Decode(to))
		}
		step.Num = k
		c.Steps = append(c.Steps, step)
	}
	if c.LoopStart > len(c.Steps) {
		c.LoopStart = len(c.Steps)
	}
	c.Final = s.m.Decode(models[last])
	c.Processes = state.Processes(s.m, models[0], models[last])
	switch {
	case s.failKind != "" && !s.failState:
		// The failing step has no successor: it is explained as a step
		// from the last state to itself.
		step := s.m.Explain(s.failTr, models[last], models[last])
		step.Note = s.failMsg
		step.Num = len(c.Steps) + 1
		c.Steps = append(c.Steps, step)
	case s.failKind != "" && len(c.Steps) > 0:
		c.Steps[len(c.Steps)-1].Note = s.failMsg
	}
	return c
}
