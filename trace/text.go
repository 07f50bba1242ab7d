package trace

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// WriteText writes a report as ftmc prints it on a terminal: the statistics
// block, one verdict line per property, then each counterexample.
func WriteText(w io.Writer, r *Report) {
	writeStats(w, &r.Stats, mergedIn(r.Verdicts))
	for _, v := range r.Verdicts {
		fmt.Fprintln(w, VerdictLine(v))
	}
	for _, v := range r.Verdicts {
		if v.Counterexample != nil {
			fmt.Fprintln(w)
			if len(r.Verdicts) > 1 {
				fmt.Fprintf(w, "%s:\n", v.Property)
			}
			WriteCounterexample(w, v.Counterexample)
		}
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

// VerdictLine is "property: verdict (kind): reason"; the kind is the
// counterexample's label (a bad prefix of an LTL property says so).
func VerdictLine(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.Property, r.Verdict)
	kind := r.Kind
	if r.Counterexample != nil && kind == r.Counterexample.Kind {
		kind = r.Counterexample.Label()
	}
	if kind != "" {
		fmt.Fprintf(&b, " (%s)", kind)
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, ": %s", r.Reason)
	}
	return b.String()
}

// WriteStats writes the figures users compare model checkers by, in the
// shape of Spin's statistics block. Figures an engine does not report (zero)
// are left out; engines' own figures (Extra) follow.
func WriteStats(w io.Writer, st *Stats) { writeStats(w, st, nil) }

// mergedIn returns, when some of the searches of rs merged statements
// and others did not, the properties of each kind; otherwise nil.
func mergedIn(rs []Result) [][]string {
	var on, off []string
	for _, r := range rs {
		switch {
		case r.Stats == nil:
		case r.Stats.Merging:
			on = append(on, r.Property)
		default:
			off = append(off, r.Property)
		}
	}
	if len(on) == 0 || len(off) == 0 {
		return nil
	}
	return [][]string{on, off}
}

// writeStats is WriteStats; merged, when not nil, names the properties
// whose searches merged statements and those whose searches did not.
func writeStats(w io.Writer, st *Stats, merged [][]string) {
	explicit := st.States > 0 || st.VectorBytes > 0
	if explicit {
		fmt.Fprintf(w, "State-vector %d byte, depth reached %d", st.VectorBytes, st.Depth)
		if !st.Complete {
			fmt.Fprint(w, " (search not completed)")
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%12d states, stored\n", st.States)
		fmt.Fprintf(w, "%12d states, matched\n", st.Matched)
		fmt.Fprintf(w, "%12d transitions\n", st.Transitions)
	}
	switch st.Reduction {
	case "partial-order":
		fmt.Fprintf(w, "partial-order reduction: on (%d states expanded with an ample set)\n", st.AmpleStates)
	case "none":
		fmt.Fprintln(w, "partial-order reduction: off (not available for this search)")
	}
	switch {
	case st.Merging && len(merged) == 2:
		fmt.Fprintf(w, "statement merging: on for %s; off for %s\n", strings.Join(merged[0], ", "), strings.Join(merged[1], ", "))
	case st.Merging:
		fmt.Fprintln(w, "statement merging: on")
	}
	if st.Storage != "" {
		fmt.Fprintf(w, "state storage: %s (lossy: states may have been missed)\n", st.Storage)
	}
	for _, f := range st.Extra {
		fmt.Fprintf(w, "%12s %s\n", formatFigure(f.Value), f.Name)
	}
	if st.StoreBytes > 0 || st.MemoryBytes > 0 {
		fmt.Fprintln(w, "Memory usage (in Megabytes):")
		if st.StoreBytes > 0 {
			fmt.Fprintf(w, "%12.3f state store", float64(st.StoreBytes)/1e6)
			if st.BytesPerState > 0 {
				fmt.Fprintf(w, " (%.1f bytes per state)", st.BytesPerState)
			}
			fmt.Fprintln(w)
		}
		if st.MemoryBytes > 0 {
			fmt.Fprintf(w, "%12.3f total memory usage\n", float64(st.MemoryBytes)/1e6)
		}
	}
	fmt.Fprintf(w, "elapsed time %.3g seconds", st.Seconds)
	if st.StatesPerSec > 0 {
		fmt.Fprintf(w, ", %.4g states/second", st.StatesPerSec)
	}
	fmt.Fprintln(w)
}

func formatFigure(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// WriteCounterexample writes a counterexample as numbered steps: the moving
// process, the source position and the statement, then what the step
// changed, indented. A lasso's cycle is marked where it starts.
func WriteCounterexample(w io.Writer, c *Counterexample) {
	fmt.Fprintf(w, "counterexample: %s", c.Label())
	if c.Message != "" && c.Message != c.Kind {
		fmt.Fprintf(w, ": %s", c.Message)
	}
	plural := "s"
	if len(c.Steps) == 1 {
		plural = ""
	}
	fmt.Fprintf(w, " (%d step%s)\n", len(c.Steps), plural)
	if len(c.Params) > 0 {
		fmt.Fprintf(w, "parameters: %s\n", FormatParams(c.Params, ", "))
	}
	if len(c.Initial) > 0 {
		fmt.Fprintln(w, "initial state:")
		writeVars(w, c.Initial)
	}
	width := len(strconv.Itoa(len(c.Steps)))
	for i, s := range c.Steps {
		if i == c.LoopStart {
			fmt.Fprintln(w, "<<<<< START OF CYCLE >>>>>")
		}
		fmt.Fprintf(w, "%*d: %s\n", width+2, s.Num, stepHeader(&s))
		for _, e := range s.Events {
			fmt.Fprintf(w, "\t%s\n", eventText(e))
		}
		writeVars(w, s.Changes)
		if s.Note != "" {
			fmt.Fprintf(w, "\t=> %s\n", s.Note)
		}
	}
	if c.LoopStart >= 0 && c.LoopStart >= len(c.Steps) {
		fmt.Fprintln(w, "<<<<< START OF CYCLE >>>>> (the final state repeats forever)")
	}
	if len(c.Final) > 0 {
		fmt.Fprintln(w, "final state:")
		writeVars(w, c.Final)
	}
}

// stepHeader is "proc(pid) file:line [stmt] x multiplicity".
func stepHeader(s *Step) string {
	var b strings.Builder
	name := s.Proc
	if s.Group != "" {
		name = s.Group + "." + name
	}
	switch {
	case s.Pid >= 0 && name != "":
		fmt.Fprintf(&b, "%s(%d)", name, s.Pid)
	case s.Pid >= 0:
		fmt.Fprintf(&b, "pid %d", s.Pid)
	case name != "":
		b.WriteString(name)
	default:
		b.WriteString("-")
	}
	if s.File != "" || s.Line > 0 {
		b.WriteByte(' ')
		b.WriteString(s.File)
		if s.Line > 0 {
			fmt.Fprintf(&b, ":%d", s.Line)
		}
	}
	if s.Stmt != "" {
		fmt.Fprintf(&b, " [%s]", s.Stmt)
	}
	if s.Multiplicity > 1 {
		fmt.Fprintf(&b, " x %d", s.Multiplicity)
	}
	return b.String()
}

func eventText(e Event) string {
	var s string
	switch e.Type {
	case "send":
		s = e.Chan + "!" + e.Msg
		if e.Partner >= 0 {
			s += fmt.Sprintf(" (to pid %d)", e.Partner)
		}
	case "recv":
		s = e.Chan + "?" + e.Msg
		if e.Partner >= 0 {
			s += fmt.Sprintf(" (from pid %d)", e.Partner)
		}
	case "move":
		s = fmt.Sprintf("* %s: %s -> %s", e.Msg, e.From, e.To)
	default:
		s = "* " + e.Text
		if e.Text == "" {
			s = "* " + e.Type
		}
	}
	if e.Dropped {
		s += " (dropped)"
	}
	if e.Failed {
		s += " (not sent"
		if e.Text != "" {
			s += ": " + e.Chan + " " + e.Text
		}
		s += ")"
	}
	return s
}

func writeVars(w io.Writer, vs []Var) {
	for _, v := range vs {
		fmt.Fprintf(w, "\t%s = %s\n", v.Name, v.Value)
	}
}

// FormatParams writes parameter values sorted by name, separated by sep:
// "N=4, T=1" in a report, "N=4,T=1" as --param takes them.
func FormatParams(p map[string]int64, sep string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, p[k])
	}
	return strings.Join(parts, sep)
}
