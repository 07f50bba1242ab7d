// Package state is the interface between ftmc's front ends (Promela, threshold
// automata, array-based systems instantiated for a fixed size) and its
// explicit-state engines.
//
// It follows the idea of LTSmin's PINS: a front end compiles a model into a
// next-state function over packed state vectors; an engine (breadth-first or
// depth-first search, nested DFS for LTL, later parallel search and reductions)
// consumes only this interface. Neither side imports the other.
//
// A state is a byte vector. Its length may change from state to state (a
// Promela `run` adds a process), so engines store vectors with their length.
// Vectors passed to callbacks are only valid during the call: an engine that
// keeps one must copy it.
package state

import "ftmc/trace"

// Trans identifies one transition taken from a state. Its fields are opaque
// to engines except Proc, which fairness and partial-order reduction use.
type Trans struct {
	Proc int32 // the moving process (a pid), or -1 when no process moves
	ID   int32 // front-end specific: index into the model's transition table
	Aux  int32 // front-end specific: partner pid of a rendezvous, a choice, ...
}

// Failure kinds reported through Sink.Fail and Model.Check. They are also the
// "kind" field of a verdict. KindLimitReached is no violation: a model
// reports it through Sink.Fail when it cannot represent a successor (a value
// beyond what its vector holds), and the search stops there with verdict
// unknown, the message its reason.
const (
	KindInvalidEnd   = "invalid end state"
	KindAssertion    = "assertion"
	KindRuntime      = "runtime error"
	KindAcceptCycle  = "acceptance cycle"
	KindNonProgress  = "non-progress cycle"
	KindInvariant    = "invariant"
	KindUnreachable  = "unreachable"
	KindLimitReached = "limit"
)

// Sink receives the successors of a state.
type Sink interface {
	// Succ reports the successor s reached by t. s is valid only during the call.
	Succ(t Trans, s []byte)
	// Fail reports that taking t from the current state violates a property
	// (an assertion fails, an array index is out of bounds, a division by
	// zero, ...). kind is one of the Kind constants; msg says what happened.
	Fail(t Trans, kind, msg string)
}

// Model is a finite transition system over packed state vectors.
//
// A Model is not safe for concurrent use (it owns scratch space); an engine
// that runs several workers calls Fork once per worker.
type Model interface {
	// Name is the model's name for reports (usually its file name).
	Name() string
	// Initial calls emit with each initial state.
	Initial(emit func(s []byte)) error
	// Next calls sink once per successor of s (and once per failing
	// transition). A state with no call to sink.Succ is a terminal state.
	Next(s []byte, sink Sink)
	// ValidEnd reports whether a terminal state s is a proper end of a run
	// (for Promela: every process is at its end or at an end label, and
	// channels are empty where Spin demands it). A terminal state that is not
	// a valid end is an invalid end state (a deadlock).
	ValidEnd(s []byte) bool
	// Explain describes the step t from from to to, for counterexamples:
	// process, source position, statement, message events. Changes may be
	// left empty; the engine fills them from Decode. For a transition that
	// failed (Sink.Fail) there is no successor: to is from.
	Explain(t Trans, from, to []byte) trace.Step
	// Decode returns the named values of s (variables, channel contents,
	// process locations) in a stable order, for traces.
	Decode(s []byte) []trace.Var
	// Fork returns a model that shares m's read-only data and can run
	// concurrently with m.
	Fork() Model
}

// Checker is an optional interface: a model with state properties (a
// monitor's error state, an invariant) reports a violation in s as a kind and
// message, or ok.
type Checker interface {
	Check(s []byte) (kind, msg string, bad bool)
}

// ProcessLister is an optional interface: a model that knows the
// processes of its runs lists those of the run from state first to state
// last, as the lifelines of its charts (trace.Counterexample.Processes).
type ProcessLister interface {
	Processes(first, last []byte) []trace.Process
}

// Processes is what m lists of the run from first to last, or nil when m
// is not a ProcessLister.
func Processes(m Model, first, last []byte) []trace.Process {
	if pl, ok := m.(ProcessLister); ok {
		return pl.Processes(first, last)
	}
	return nil
}

// Reducer is an optional interface for partial-order reduction (Holzmann
// and Peled's, as in Spin). Ample appends to buf the pids of the processes
// whose every transition at their location in s is safe: independent of
// every other process's transitions (it reads and writes only the
// process's own variables), not inside an atomic sequence, and invisible to
// the state properties the model checks. The transitions of such a process,
// when it has at least one enabled, form an ample set: a search may expand
// them alone, provided that none of them closes a cycle (the engine's
// proviso). Pids come in the order Next tries processes.
type Reducer interface {
	Ample(s []byte, buf []int32) []int32
}
