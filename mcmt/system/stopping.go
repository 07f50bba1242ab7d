package system

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
)

// The stopping-failures semantics of an instance: besides the transitions
// of the system, any process may stop at any time, after which it takes no
// step, is not checked by universal guards and is no longer subject to the
// system axioms. This is the semantics that backward reachability computes
// (MCMT and Cubicle instantiate universal guards over the processes a cube
// mentions only), so its reachable states are the ones a negated invariant
// found by that search must avoid; the states of the plain instance are a
// subset of them.

// StoppingOptions bound an exploration in the stopping-failures semantics.
type StoppingOptions struct {
	MaxStates int64 // 0: no limit
	// Axioms prunes the states that violate a system axiom over the
	// processes still running, as backward reachability does.
	Axioms bool
	// OnState sees every reachable state once: the values (the slots of
	// stopped processes read 0) and the set of running processes (bit p
	// for process p). Both are valid during the call only.
	OnState func(vals []int64, running uint64)
}

// StoppingResult is the outcome of ExploreStopping.
type StoppingResult struct {
	States   int64
	Complete bool
	Reason   string // why not complete
}

// ExploreStopping explores the instance with n processes breadth first in
// the stopping-failures semantics.
func ExploreStopping(ctx context.Context, s *System, n int, opts StoppingOptions) (*StoppingResult, error) {
	if n > 16 {
		return nil, fmt.Errorf("at most 16 processes in the stopping-failures semantics")
	}
	c, err := Compile(s, n)
	if err != nil {
		return nil, err
	}
	size := c.Size + 2 // two bytes of running processes
	var arena []byte
	var buf []byte
	// seen holds the states added (n >= 0: state n of the arena) and the
	// states an axiom rejected (n < 0: state -n-1 of rejected), so that
	// neither is checked twice.
	seen := newStateSet()
	var rejected []byte
	axEnv := make([]int, 2)
	for _, q := range c.axioms {
		axEnv = make([]int, max(len(axEnv), q.k+2))
	}
	res := &StoppingResult{}
	all := uint64(1)<<uint(n) - 1
	stateAt := func(n int32) []byte {
		if n >= 0 {
			return arena[int(n)*size : (int(n)+1)*size]
		}
		return rejected[int(-n-1)*size : int(-n)*size]
	}
	// add adds a state unless it is known; check asks for the axioms to
	// be checked (a state where a process of an axiom-abiding state
	// stopped abides by them: they quantify over fewer processes).
	add := func(vals []int64, running uint64, check bool) error {
		buf = buf[:0]
		for _, v := range vals {
			if v < -128 || v > 127 {
				return fmt.Errorf("a value leaves -128..127")
			}
			buf = append(buf, byte(int8(v)))
		}
		buf = append(buf, byte(running), byte(running>>8))
		h := maphash.Bytes(seen.seed, buf)
		if seen.find(h, buf, stateAt) {
			return nil
		}
		if check && opts.Axioms && c.brokenAxiomAmong(vals, running, axEnv) >= 0 {
			seen.insert(h, int32(-len(rejected)/size-1))
			rejected = append(rejected, buf...)
			return nil
		}
		seen.insert(h, int32(len(arena)/size))
		arena = append(arena, buf...)
		return nil
	}
	var addErr error
	err = c.Initial(1<<22, func(vals []int64) {
		if addErr == nil {
			addErr = add(vals, all, true)
		}
	})
	if err != nil {
		return nil, err
	}
	if addErr != nil {
		return nil, addErr
	}
	vals := make([]int64, c.Size)
	stopped := make([]int64, c.Size)
	applyEnv, applyNext := make([]int, c.EnvSize()), make([]int64, c.Size)
	env := make([]int, c.EnvSize())
	for head := 0; head*size < len(arena); head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			res.States, res.Reason = int64(len(arena)/size), "cancelled"
			return res, nil
		}
		if opts.MaxStates > 0 && int64(len(arena)/size) >= opts.MaxStates {
			res.States, res.Reason = int64(len(arena)/size), fmt.Sprintf("state limit %d reached", opts.MaxStates)
			return res, nil
		}
		st := arena[head*size : (head+1)*size]
		for i := range vals {
			vals[i] = int64(int8(st[i]))
		}
		running := uint64(st[c.Size]) | uint64(st[c.Size+1])<<8
		if opts.OnState != nil {
			opts.OnState(vals, running)
		}
		for ti := range c.trans {
			c.enabledAmong(ti, vals, env, running, func(params []int) {
				if addErr != nil {
					return
				}
				if err := c.apply(ti, params, vals, applyEnv, applyNext, func(next []int64) {
					if addErr == nil {
						c.clearStopped(next, running)
						addErr = add(next, running, true)
					}
				}); err != nil && addErr == nil {
					addErr = err
				}
			})
			if addErr != nil {
				return nil, addErr
			}
		}
		for p := 0; p < n; p++ {
			if running&(1<<uint(p)) == 0 {
				continue
			}
			copy(stopped, vals)
			r := running &^ (1 << uint(p))
			c.clearStopped(stopped, r)
			if err := add(stopped, r, false); err != nil {
				return nil, err
			}
		}
	}
	res.States, res.Complete = int64(len(arena)/size), true
	return res, nil
}

// clearStopped sets the local slots of stopped processes to 0: nothing
// reads them any more, and equal states merge.
func (c *Concrete) clearStopped(vals []int64, running uint64) {
	for _, v := range c.Sys.Vars {
		if !v.Local {
			continue
		}
		for p := 0; p < c.N; p++ {
			if running&(1<<uint(p)) == 0 {
				vals[c.base[v.ID]+p] = 0
			}
		}
	}
}

// brokenAxiomAmong is BrokenAxiom over the running processes; env is
// scratch space with room for every axiom's variables.
func (c *Concrete) brokenAxiomAmong(vals []int64, running uint64, env []int) int {
	for i := range c.axioms {
		if !c.axiomAmong(&c.axioms[i], 0, vals, running, env) {
			return i
		}
	}
	return -1
}

// axiomAmong reports whether q holds for every placement of its variables
// from j on over the running processes.
func (c *Concrete) axiomAmong(q *cquant, j int, vals []int64, running uint64, env []int) bool {
	if j == q.k {
		return c.holds(q.body, vals, env)
	}
	for p := 0; p < c.N; p++ {
		if running&(1<<uint(p)) == 0 {
			continue
		}
		env[j] = p
		if !c.axiomAmong(q, j+1, vals, running, env) {
			return false
		}
	}
	return true
}

// stateSet is an open-addressing hash set of state numbers; the states
// themselves live elsewhere (see find).
type stateSet struct {
	seed  maphash.Seed
	slots []stateSlot
	count int
}

type stateSlot struct {
	hash uint64
	n    int32
	used bool
}

func newStateSet() *stateSet {
	return &stateSet{seed: maphash.MakeSeed(), slots: make([]stateSlot, 1024)}
}

// find reports whether a state equal to st, of hash h, is in the set;
// at returns the bytes of a state number.
func (s *stateSet) find(h uint64, st []byte, at func(int32) []byte) bool {
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; s.slots[i].used; i = (i + 1) & mask {
		if s.slots[i].hash == h && bytes.Equal(at(s.slots[i].n), st) {
			return true
		}
	}
	return false
}

// insert adds state number n of hash h (not in the set yet).
func (s *stateSet) insert(h uint64, n int32) {
	if 2*(s.count+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]stateSlot, 2*len(old))
		s.count = 0
		for _, sl := range old {
			if sl.used {
				s.insert(sl.hash, sl.n)
			}
		}
	}
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for s.slots[i].used {
		i = (i + 1) & mask
	}
	s.slots[i] = stateSlot{hash: h, n: n, used: true}
	s.count++
}
