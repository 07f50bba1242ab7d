package explore

import (
	"fmt"
	"strconv"

	"ftmc/state"
	"ftmc/trace"
)

// Test models: small transition systems written directly against
// state.Model, with state counts and counterexamples known in closed form.

// counters is K counters over 0..N-1; a transition increments one counter.
// With wrap the counters count modulo N (no terminal state); without, the
// state with every counter at N-1 is a valid end. It has N^K states.
type counters struct {
	k, n  int
	wrap  bool
	buf   []byte
	bad   []byte // Check reports this state as an invariant violation
	endOK bool   // the terminal state is a valid end
	// stride puts counter i at byte i*stride (0: i), the bytes between
	// them zero: a vector the compressed store shares more of.
	stride int
}

// at is the byte of counter i.
func (c *counters) at(i int) int { return i * max(1, c.stride) }

func (c *counters) Name() string { return "counters" }

func (c *counters) Initial(emit func([]byte)) error {
	emit(make([]byte, c.at(c.k-1)+1))
	return nil
}

func (c *counters) Next(s []byte, sink state.Sink) {
	c.buf = append(c.buf[:0], s...)
	for i := range c.k {
		b := c.at(i)
		v := c.buf[b]
		switch {
		case int(v) < c.n-1:
			c.buf[b] = v + 1
		case c.wrap:
			c.buf[b] = 0
		default:
			continue
		}
		sink.Succ(state.Trans{Proc: int32(i), ID: 0}, c.buf)
		c.buf[b] = v
	}
}

func (c *counters) ValidEnd([]byte) bool { return c.endOK }

func (c *counters) Explain(t state.Trans, from, to []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc), Proc: "counter", File: "counters.go", Line: 1, Stmt: fmt.Sprintf("c%d++", t.Proc)}
}

func (c *counters) Decode(s []byte) []trace.Var {
	vs := make([]trace.Var, len(s))
	for i, b := range s {
		vs[i] = trace.Var{Name: fmt.Sprintf("c%d", i), Value: strconv.Itoa(int(b))}
	}
	return vs
}

func (c *counters) Fork() state.Model { d := *c; d.buf = nil; return &d }

func (c *counters) states() int64 {
	n := int64(1)
	for range c.k {
		n *= int64(c.n)
	}
	return n
}

// checkedCounters adds a state property to counters.
type checkedCounters struct{ counters }

func (c *checkedCounters) Fork() state.Model {
	return &checkedCounters{*c.counters.Fork().(*counters)}
}

func (c *checkedCounters) Check(s []byte) (string, string, bool) {
	if string(s) == string(c.bad) {
		return state.KindInvariant, "invariant violated: the bad state", true
	}
	return "", "", false
}

// philosophers is the dining philosophers: philosopher i takes fork i, then
// fork i+1, eats, and puts both back. When every philosopher holds the left
// fork, none can move: a deadlock after N steps.
//
// Vector: N philosopher locations (0 thinking, 1 has left, 2 eating), then N
// fork owners (0 free, i+1 held by i).
type philosophers struct {
	n   int
	buf []byte
}

func (p *philosophers) Name() string { return "philosophers" }

func (p *philosophers) Initial(emit func([]byte)) error {
	emit(make([]byte, 2*p.n))
	return nil
}

func (p *philosophers) Next(s []byte, sink state.Sink) {
	n := p.n
	for i := range n {
		left, right := n+i, n+(i+1)%n
		p.buf = append(p.buf[:0], s...)
		b := p.buf
		switch s[i] {
		case 0:
			if s[left] != 0 {
				continue
			}
			b[i], b[left] = 1, byte(i+1)
		case 1:
			if s[right] != 0 {
				continue
			}
			b[i], b[right] = 2, byte(i+1)
		case 2:
			b[i], b[left], b[right] = 0, 0, 0
		}
		sink.Succ(state.Trans{Proc: int32(i), ID: int32(s[i])}, b)
	}
}

func (p *philosophers) ValidEnd([]byte) bool { return false }

func (p *philosophers) Explain(t state.Trans, from, to []byte) trace.Step {
	stmt := [...]string{"take left fork", "take right fork", "put forks back"}[t.ID]
	return trace.Step{Pid: int(t.Proc), Proc: "phil", File: "phil.pml", Line: 10 + int(t.ID), Stmt: stmt}
}

func (p *philosophers) Decode(s []byte) []trace.Var {
	var vs []trace.Var
	for i := range p.n {
		vs = append(vs, trace.Var{Name: fmt.Sprintf("phil[%d]", i), Value: strconv.Itoa(int(s[i]))})
	}
	for i := range p.n {
		vs = append(vs, trace.Var{Name: fmt.Sprintf("fork[%d]", i), Value: strconv.Itoa(int(s[p.n+i]))})
	}
	return vs
}

func (p *philosophers) Fork() state.Model { q := *p; q.buf = nil; return &q }

// ring passes a token around m nodes: x counts the moves modulo 256, and an
// assertion fails when the token reaches node target for the laps-th time.
// Vector: token position, lap count.
type ring struct {
	m, target, laps int
	buf             [2]byte
}

func (r *ring) Name() string { return "ring" }

func (r *ring) Initial(emit func([]byte)) error {
	emit([]byte{0, 0})
	return nil
}

func (r *ring) Next(s []byte, sink state.Sink) {
	pos, lap := int(s[0]), int(s[1])
	np, nl := (pos+1)%r.m, lap
	if np == 0 {
		nl = (lap + 1) % 256
	}
	if np == r.target && nl == r.laps {
		sink.Fail(state.Trans{Proc: int32(pos), ID: 1}, state.KindAssertion, "assertion violated !(token == target)")
		return
	}
	r.buf = [2]byte{byte(np), byte(nl)}
	sink.Succ(state.Trans{Proc: int32(pos), ID: 0}, r.buf[:])
}

func (r *ring) ValidEnd([]byte) bool { return false }

func (r *ring) Explain(t state.Trans, from, to []byte) trace.Step {
	stmt := "pass token"
	if t.ID == 1 {
		stmt = "assert(token != target)"
	}
	return trace.Step{Pid: int(t.Proc), Proc: "node", File: "ring.pml", Line: 5 + int(t.ID), Stmt: stmt}
}

func (r *ring) Decode(s []byte) []trace.Var {
	return []trace.Var{{Name: "token", Value: strconv.Itoa(int(s[0]))}, {Name: "lap", Value: strconv.Itoa(int(s[1]))}}
}

func (r *ring) Fork() state.Model { q := *r; return &q }

// spawner starts with one process; any process may start another, up to p;
// each process counts to c-1. The vector is one byte per process, so it
// grows. Every sequence of 1..p counters in 0..c-1 is reachable:
// c + c^2 + ... + c^p states.
type spawner struct {
	p, c int
	buf  []byte
}

func (s *spawner) Name() string { return "spawner" }

func (s *spawner) Initial(emit func([]byte)) error {
	emit([]byte{0})
	return nil
}

func (s *spawner) Next(v []byte, sink state.Sink) {
	for i := range v {
		if int(v[i]) < s.c-1 {
			s.buf = append(s.buf[:0], v...)
			s.buf[i]++
			sink.Succ(state.Trans{Proc: int32(i)}, s.buf)
		}
	}
	if len(v) < s.p {
		s.buf = append(append(s.buf[:0], v...), 0)
		sink.Succ(state.Trans{Proc: 0, ID: 1}, s.buf)
	}
}

func (s *spawner) ValidEnd([]byte) bool { return true }

func (s *spawner) Explain(t state.Trans, from, to []byte) trace.Step {
	return trace.Step{Pid: int(t.Proc), Proc: "p", Stmt: [...]string{"count++", "run p()"}[t.ID]}
}

func (s *spawner) Decode(v []byte) []trace.Var {
	vs := []trace.Var{{Name: "_nr_pr", Value: strconv.Itoa(len(v))}}
	for i, b := range v {
		vs = append(vs, trace.Var{Name: fmt.Sprintf("p[%d].count", i), Value: strconv.Itoa(int(b))})
	}
	return vs
}

func (s *spawner) Fork() state.Model { q := *s; q.buf = nil; return &q }

func (s *spawner) states() int64 {
	total, pow := int64(0), int64(1)
	for range s.p {
		pow *= int64(s.c)
		total += pow
	}
	return total
}

// wideCounters is counters with pad constant bytes after the counters: the
// same state space in longer vectors.
type wideCounters struct {
	counters
	pad int
}

func (w *wideCounters) Initial(emit func([]byte)) error {
	emit(make([]byte, w.k+w.pad))
	return nil
}
