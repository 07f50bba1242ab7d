// Package expect reads the expected outcomes that a model file states about
// itself, so that one table-driven test can run every model of the project.
//
// The lines are found anywhere in the file's comments, whatever the language's
// comment syntax (Promela //, /* */; threshold automata /* */; Cubicle (* *)):
//
//	ftmc: check -D CHAN=B -D BUF=1      starts a run: the ftmc command line after "ftmc"
//	expect: invalid end state           the run's overall outcome
//	expect relay: holds                 the verdict for one property
//	expect corr: violated (assertion)   verdict and kind
//	expect: slow                        the run is left out of `go test -short`
//
// An outcome is a verdict (holds, violated, unknown) optionally followed by a
// kind in parentheses, or a bare kind (invalid end state, assertion, runtime
// error, acceptance cycle, non-progress cycle), which means violated with that
// kind. Expectations before the first "ftmc:" line belong to a default run
// (the command given to Parse) without extra arguments.
package expect

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Run is one invocation of ftmc on the model and what it must report.
type Run struct {
	Line    int      // line of the "ftmc:" directive (0 for the default run)
	Args    []string // command and flags, without the model path
	Overall *Outcome // from "expect: ..."
	Props   []Prop   // from "expect NAME: ..."
	Slow    bool
}

// Prop is the expected outcome of one named property.
type Prop struct {
	Name string
	Outcome
	Line int
}

// Outcome is a verdict and, for violations, optionally a kind.
type Outcome struct {
	Verdict string // holds, violated, unknown
	Kind    string // empty: any
}

func (o Outcome) String() string {
	if o.Kind != "" {
		return fmt.Sprintf("%s (%s)", o.Verdict, o.Kind)
	}
	return o.Verdict
}

var (
	runRe    = regexp.MustCompile(`\bftmc:\s*(.*?)\s*(\*/|\*\))?\s*$`)
	expectRe = regexp.MustCompile(`\bexpect(\s+[A-Za-z_][A-Za-z0-9_.\-]*)?\s*:\s*(.*?)\s*(\*/|\*\))?\s*$`)
	kinds    = []string{"invalid end state", "assertion", "runtime error", "acceptance cycle", "non-progress cycle", "invariant"}
)

// ParseOutcome reads "holds", "violated (assertion)", "invalid end state", ...
func ParseOutcome(s string) (Outcome, error) {
	s = strings.TrimSpace(s)
	if s == "deadlock" {
		return Outcome{"violated", "invalid end state"}, nil
	}
	for _, k := range kinds {
		if s == k {
			return Outcome{"violated", k}, nil
		}
	}
	verdict, rest, _ := strings.Cut(s, " ")
	switch verdict {
	case "holds", "violated", "unknown":
	default:
		return Outcome{}, fmt.Errorf("expected holds, violated, unknown or a violation kind, found %q", s)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return Outcome{Verdict: verdict}, nil
	}
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
		return Outcome{}, fmt.Errorf("expected a kind in parentheses after %q, found %q", verdict, rest)
	}
	return Outcome{Verdict: verdict, Kind: strings.TrimSpace(rest[1 : len(rest)-1])}, nil
}

// Parse reads the runs a model file declares. defaultCmd is the command of
// expectations that precede any "ftmc:" line (e.g. "check" or "verify").
// A file without expectations yields no runs.
func Parse(r io.Reader, defaultCmd string) ([]Run, error) {
	var runs []Run
	cur := -1
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := runRe.FindStringSubmatch(line); m != nil {
			args := strings.Fields(m[1])
			if len(args) == 0 {
				return nil, fmt.Errorf("line %d: expected a command after \"ftmc:\"", n)
			}
			runs = append(runs, Run{Line: n, Args: args})
			cur = len(runs) - 1
			continue
		}
		m := expectRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if cur < 0 {
			runs = append(runs, Run{Args: []string{defaultCmd}})
			cur = 0
		}
		name, text := strings.TrimSpace(m[1]), m[2]
		if name == "" && text == "slow" {
			runs[cur].Slow = true
			continue
		}
		o, err := ParseOutcome(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if name == "" {
			if runs[cur].Overall != nil {
				return nil, fmt.Errorf("line %d: a second overall expectation for the run of line %d", n, runs[cur].Line)
			}
			runs[cur].Overall = &o
		} else {
			runs[cur].Props = append(runs[cur].Props, Prop{Name: name, Outcome: o, Line: n})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, r := range runs {
		if r.Overall == nil && len(r.Props) == 0 {
			return nil, fmt.Errorf("line %d: run without any expectation", r.Line)
		}
	}
	return runs, nil
}
