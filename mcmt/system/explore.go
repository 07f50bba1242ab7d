package system

import (
	"context"
	"fmt"
	"strings"

	"ftmc/state"
	"ftmc/trace"
)

// A small breadth-first search over an instance, for the bounded
// cross-check of parameterized verdicts: it also checks that the system
// axioms (which backward reachability assumes) hold on the instance.

// ExploreResult is the outcome of Explore.
type ExploreResult struct {
	States, Transitions int64
	Complete            bool   // the whole state space was explored
	Reason              string // why not complete
	// Unsafe is a shortest run to a state that satisfies an unsafe
	// formula, or nil.
	Unsafe *trace.Counterexample
	// Axiom is the index of a system axiom that some reachable state
	// violates (-1 if none), and AxiomRun a shortest run to such a state.
	Axiom    int
	AxiomRun *trace.Counterexample
}

// ExploreOptions bound and observe a search.
type ExploreOptions struct {
	MaxStates int64 // 0: no limit
	// OnState, when set, sees every reachable state once (valid during the
	// call only).
	OnState func(s []byte)
}

// Explore searches the instance breadth first. It stops at the first
// unsafe state; states that break an axiom are recorded and explored
// further.
func Explore(ctx context.Context, in *Instance, opts ExploreOptions) (*ExploreResult, error) {
	maxStates := opts.MaxStates
	size := in.C.Size
	res := &ExploreResult{Axiom: -1}
	index := map[string]int32{}
	var arena []byte
	var parent []int32
	var via []state.Trans
	add := func(s []byte, p int32, t state.Trans) (int32, bool) {
		if i, ok := index[string(s)]; ok {
			return i, false
		}
		i := int32(len(parent))
		index[string(s)] = i
		arena = append(arena, s...)
		parent = append(parent, p)
		via = append(via, t)
		return i, true
	}
	get := func(i int32) []byte { return arena[int(i)*size : int(i+1)*size] }
	path := func(i int32, kind, msg string) *trace.Counterexample {
		var ids []int32
		for j := i; j >= 0; j = parent[j] {
			ids = append(ids, j)
		}
		cx := &trace.Counterexample{Kind: kind, Message: msg, LoopStart: -1,
			Params: map[string]int64{"processes": int64(in.C.N)}}
		cx.Initial = in.Decode(get(ids[len(ids)-1]))
		for k := len(ids) - 2; k >= 0; k-- {
			st := in.Explain(via[ids[k]], get(ids[k+1]), get(ids[k]))
			st.Num = len(cx.Steps) + 1
			cx.Steps = append(cx.Steps, st)
		}
		cx.Final = in.Decode(get(i))
		return cx
	}
	check := func(i int32) bool {
		s := get(i)
		if opts.OnState != nil {
			opts.OnState(s)
		}
		if kind, msg, bad := in.Check(s); bad {
			res.Unsafe = path(i, kind, msg)
			return true
		}
		if res.Axiom < 0 {
			if a := in.BrokenAxiom(s); a >= 0 {
				res.Axiom = a
				res.AxiomRun = path(i, state.KindInvariant, fmt.Sprintf("system axiom %d is false here", a+1))
			}
		}
		return false
	}
	var initErr error
	err := in.Initial(func(s []byte) {
		if initErr != nil {
			return
		}
		if len(s) != size {
			initErr = fmt.Errorf("state vector of %d bytes, want %d", len(s), size)
			return
		}
		add(s, -1, state.Trans{Proc: -1, ID: -1})
	})
	if err != nil {
		return nil, err
	}
	if initErr != nil {
		return nil, initErr
	}
	sink := &bfsSink{}
	for head := int32(0); int(head) < len(parent); head++ {
		if check(head) {
			res.States = int64(len(parent))
			res.Reason = "stopped at an unsafe state"
			return res, nil
		}
		if head&1023 == 0 && ctx.Err() != nil {
			res.States = int64(len(parent))
			res.Reason = "cancelled"
			return res, nil
		}
		if maxStates > 0 && int64(len(parent)) >= maxStates {
			res.States = int64(len(parent))
			res.Reason = fmt.Sprintf("state limit %d reached", maxStates)
			return res, nil
		}
		sink.succ = sink.succ[:0]
		sink.buf = sink.buf[:0]
		sink.fail = ""
		in.Next(get(head), sink)
		if sink.fail != "" {
			if strings.HasSuffix(sink.fail, outOfRange) {
				// An unbounded counter, say: the search cannot go on,
				// and what it has seen is no verdict.
				res.States = int64(len(parent))
				res.Reason = strings.TrimPrefix(sink.fail, state.KindRuntime+": ") + " (ftmc keeps values in a byte): the instance is not explored to the end"
				return res, nil
			}
			return nil, fmt.Errorf("%s", sink.fail)
		}
		for k, t := range sink.succ {
			res.Transitions++
			add(sink.buf[k*size:(k+1)*size], head, t)
		}
	}
	res.States = int64(len(parent))
	res.Complete = true
	return res, nil
}

type bfsSink struct {
	succ []state.Trans
	buf  []byte
	fail string
}

func (b *bfsSink) Succ(t state.Trans, s []byte) {
	b.succ = append(b.succ, t)
	b.buf = append(b.buf, s...)
}

func (b *bfsSink) Fail(t state.Trans, kind, msg string) {
	if b.fail == "" {
		b.fail = kind + ": " + msg
	}
}
