// Package trace holds the results every ftmc engine produces: verdicts, run
// statistics and one counterexample type for all engines (Promela runs,
// threshold-automaton schedules, array-based system traces), with renderers
// for text, JSON and message sequence charts.
package trace

// Verdict is the outcome for one property. An engine that did not finish its
// search says Unknown, never Holds.
type Verdict string

const (
	Holds    Verdict = "holds"
	Violated Verdict = "violated"
	Unknown  Verdict = "unknown"
)

// Result is the verdict for one property.
type Result struct {
	Property string  `json:"property"`
	Verdict  Verdict `json:"verdict"`
	// Formula is the text of a property given on the command line
	// (--ltl-formula), whose name alone does not say what was checked.
	Formula        string          `json:"formula,omitempty"`
	Kind           string          `json:"kind,omitempty"`   // e.g. "invalid end state", "assertion"
	Reason         string          `json:"reason,omitempty"` // why unknown (limit hit, solver timeout, ...)
	Counterexample *Counterexample `json:"counterexample,omitempty"`
	Stats          *Stats          `json:"stats,omitempty"` // per-property statistics, when they differ from the run's
}

// Report is what one run of ftmc prints with --json. Its JSON form is
// versioned: Format (first in the object) names the format and its major
// version, see FormatVersion and docs/report.schema.json.
type Report struct {
	// Format is FormatVersion in what WriteJSON writes; empty in a report
	// read from a file written before the field existed.
	Format   string            `json:"format"`
	Model    string            `json:"model"`
	Engine   string            `json:"engine,omitempty"`
	Params   map[string]int64  `json:"params,omitempty"`
	Defines  map[string]string `json:"defines,omitempty"`
	Verdicts []Result          `json:"verdicts"`
	Stats    Stats             `json:"stats"`
	Warnings []string          `json:"warnings,omitempty"`
	// Error says why a run has no verdicts of its own (ftmc sweep: a
	// combination that is bad input); its one verdict is then unknown.
	Error string `json:"error,omitempty"`
	// Synthesis is the outcome of a guard synthesis (ftmc verify on a
	// threshold automaton with unknowns); the verdicts are then those of
	// the solution, or one verdict "synthesis" when there is none.
	Synthesis *Synthesis `json:"synthesis,omitempty"`
}

// Synthesis reports a guard synthesis.
type Synthesis struct {
	Unknowns []string `json:"unknowns"`
	// Solution gives each unknown its value, when one was found.
	Solution map[string]int64 `json:"solution,omitempty"`
	// Candidates verified; Refuted by a counterexample, Generalized of
	// these with a constraint that excluded every candidate with the same
	// counterexample; Undecided (a verification that ended unknown).
	Candidates  int `json:"candidates"`
	Refuted     int `json:"refuted"`
	Generalized int `json:"generalized"`
	Undecided   int `json:"undecided"`
}

// Stats are the figures users compare model checkers by. Fields that do not
// apply to an engine stay zero and are omitted from JSON, except the four
// DESIGN.md promises.
type Stats struct {
	States      int64   `json:"states"`
	Transitions int64   `json:"transitions"`
	Seconds     float64 `json:"seconds"`
	MemoryBytes int64   `json:"memory_bytes"`
	Matched     int64   `json:"matched,omitempty"`
	// Expanded counts the states whose successors were generated: fewer
	// than States when a breadth-first search stops early.
	Expanded      int64   `json:"expanded,omitempty"`
	Depth         int64   `json:"depth,omitempty"`
	VectorBytes   int     `json:"vector_bytes,omitempty"`    // largest state vector
	StoreBytes    int64   `json:"store_bytes,omitempty"`     // bytes held by the state store
	BytesPerState float64 `json:"bytes_per_state,omitempty"` // StoreBytes / States
	StatesPerSec  float64 `json:"states_per_sec,omitempty"`
	Complete      bool    `json:"complete"` // the search covered the whole space
	// Reduction is "partial-order" when the search expanded states with
	// ample sets where it could, "none" when reduction was asked for but
	// did not apply (a parallel search, a model that cannot tell), empty
	// when it was not asked for. AmpleStates counts the states expanded
	// with an ample set.
	Reduction   string `json:"reduction,omitempty"`
	AmpleStates int64  `json:"ample_states,omitempty"`
	// Storage is how the search stored the states it visited when it was
	// lossy: "bitstate" or "hash-compact" (states may have been missed);
	// empty when every state vector was stored.
	Storage string `json:"storage,omitempty"`
	// Merging is set when the search ran a process's local statements in
	// one step (statement merging): fewer states are stored.
	Merging bool `json:"merging,omitempty"`

	// Engines that are not explicit-state report their own figures here
	// (schemas, SMT calls, nodes, fixpoint checks, ...), in a stable order.
	Extra []Figure `json:"extra,omitempty"`
}

// Add adds the figures of another search of the same run to s: counts and
// times add up, sizes and depths are the largest, and the run is complete
// when every search is (start from Stats{Complete: true} to add up
// several).
func (s *Stats) Add(st Stats) {
	s.States += st.States
	s.Transitions += st.Transitions
	s.Matched += st.Matched
	s.Expanded += st.Expanded
	s.Seconds += st.Seconds
	s.MemoryBytes = max(s.MemoryBytes, st.MemoryBytes)
	s.Depth = max(s.Depth, st.Depth)
	s.VectorBytes = max(s.VectorBytes, st.VectorBytes)
	s.StoreBytes = max(s.StoreBytes, st.StoreBytes)
	s.Complete = s.Complete && st.Complete
	s.AmpleStates += st.AmpleStates
	s.Merging = s.Merging || st.Merging
	if st.Storage != "" {
		s.Storage = st.Storage
	}
	if s.Reduction == "" || st.Reduction == "partial-order" {
		s.Reduction = st.Reduction
	}
	s.BytesPerState, s.StatesPerSec = 0, 0
	if s.Seconds > 0 {
		s.StatesPerSec = float64(s.States) / s.Seconds
	}
}

// Figure is a named statistic of an engine.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Counterexample is a run that violates a property: a finite path, or a lasso
// whose steps from LoopStart on repeat forever.
type Counterexample struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
	// Params are the parameter values of the instance (parameterized engines
	// and --param instances).
	Params map[string]int64 `json:"params,omitempty"`
	// Initial is the first state's named values.
	Initial []Var  `json:"initial,omitempty"`
	Steps   []Step `json:"steps"`
	// LoopStart is the index in Steps where the cycle of a lasso begins, or -1.
	LoopStart int `json:"loop_start"`
	// Final is the last state's named values (the deadlocked or failing state).
	Final []Var `json:"final,omitempty"`
	// Processes are the lifelines a chart draws, as the front end knows
	// them; a report written before the field existed has none, and a
	// chart then draws the processes that take steps.
	Processes []Process `json:"processes,omitempty"`
}

// Roles of a Process: what a lifeline stands for.
const (
	// RoleProcess is a Promela process: Name is its proctype.
	RoleProcess = "process"
	// RoleIndex is a process index of an array-based system: Name is "#N".
	RoleIndex = "index"
	// RoleLocation is a location of a threshold automaton: a counter
	// system does not tell its processes apart, so its lifelines are the
	// locations, and a step moves processes from one to another.
	RoleLocation = "location"
)

// Process is one lifeline of a counterexample's chart.
type Process struct {
	// Pid is how steps and events refer to the lifeline (Step.Pid,
	// Event.Partner); a location is referred to by its Name.
	Pid  int    `json:"pid"`
	Name string `json:"name"`
	Role string `json:"role"`
	// Group is the lifeline group the process belongs to (the node a
	// Promela task belongs to; a threshold automaton's processes).
	Group string `json:"group,omitempty"`
	// Optional marks a lifeline drawn only when a step draws on it: a
	// Promela process at its end in the final state, a location empty at
	// the start.
	Optional bool `json:"optional,omitempty"`
	// Count is, for a location, how many processes are there at the start.
	Count int64 `json:"count,omitempty"`
}

// Label names what the counterexample shows: its Kind, except for an
// acceptance cycle without a cycle, which is a bad prefix of an LTL
// property (every run that begins so violates it).
func (c *Counterexample) Label() string {
	if c.Kind == "acceptance cycle" && c.LoopStart < 0 {
		return "bad prefix"
	}
	return c.Kind
}

// Step is one transition of a counterexample.
type Step struct {
	Num   int    `json:"num"`             // 1-based
	Pid   int    `json:"pid"`             // moving process, -1 if none
	Proc  string `json:"proc,omitempty"`  // process type name ("#N": an array-based system's process index)
	Group string `json:"group,omitempty"` // lifeline group in charts (e.g. the node a task belongs to)
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	Stmt  string `json:"stmt,omitempty"` // the statement or rule, as written
	// Rule names the rule or transition the step fires: a threshold
	// automaton's rule ("r1", or "r1+r2" for a contracted path of rules),
	// an array-based system's transition.
	Rule string `json:"rule,omitempty"`
	// Multiplicity is how often the rule fired in this step (accelerated
	// threshold-automaton schedules); 0 means once.
	Multiplicity int64   `json:"multiplicity,omitempty"`
	Events       []Event `json:"events,omitempty"`
	Changes      []Var   `json:"changes,omitempty"` // values that differ after the step
	Note         string  `json:"note,omitempty"`    // failure message on the last step, etc.
}

// Event is something a chart draws: a message sent (or dropped) or
// received, processes moving between the locations of a threshold
// automaton, or a local event of a process (suspect q, crash, timeout).
type Event struct {
	Type string `json:"type"` // "send", "recv", "move", "local"
	Chan string `json:"chan,omitempty"`
	// Msg is a message's contents ("ALIVE,2"), or the rule of a move
	// ("r1").
	Msg string `json:"msg,omitempty"`
	// Partner is the pid at the other end when the front end knows it
	// (rendezvous, or a channel with a single reader), else -1.
	Partner int `json:"partner"`
	// From and To are, for a move, the locations its processes leave and
	// enter (the Names of Processes with RoleLocation); Step.Multiplicity
	// says how many processes move.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Text string `json:"text,omitempty"` // label of a local event; why a Failed send failed ("full")
	// Dropped marks a message lost when it was sent (a model that drops
	// what does not fit in a full channel).
	Dropped bool `json:"dropped,omitempty"`
	// Failed marks a send that the failing step was about to make and did
	// not: the statement before it failed (assert(nfull(c)); c!m with c
	// full). Text says why.
	Failed bool `json:"failed,omitempty"`
}

// Var is a named value in a state.
type Var struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Diff returns the entries of after whose value differs from before (or that
// before lacks). Both are in a model's stable Decode order.
func Diff(before, after []Var) []Var {
	old := make(map[string]string, len(before))
	for _, v := range before {
		old[v.Name] = v.Value
	}
	var out []Var
	for _, v := range after {
		if o, ok := old[v.Name]; !ok || o != v.Value {
			out = append(out, v)
		}
	}
	return out
}

// Exit codes of the ftmc command (DESIGN.md).
const (
	ExitHolds    = 0
	ExitViolated = 1
	ExitUsage    = 2
	ExitUnknown  = 3
)

// ExitCode is the process exit code for a set of verdicts: 1 if any property
// is violated, else 3 if any is unknown, else 0.
func ExitCode(rs []Result) int {
	code := ExitHolds
	for _, r := range rs {
		switch r.Verdict {
		case Violated:
			return ExitViolated
		case Unknown:
			code = ExitUnknown
		}
	}
	return code
}
