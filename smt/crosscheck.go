package smt

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// crossCheck is a solver whose unsat answers a second solver confirms
// (Options.CrossCheck): an engine's holds rests on unsat answers only, so
// a solver that wrongly answers unsat is the one that could make it claim
// too much. Both solvers receive every command; the second answers only
// the checks the first says are unsat, with the first one's unsat core as
// the assumptions (a subset, so its unsat implies the answer).
type crossCheck struct {
	a, b   *process
	reason string   // why the last Check answered Unknown, when b said so
	core   []string // of the last Check, once b confirmed it
	checks int64
	time   time.Duration
}

func (c *crossCheck) Send(cmds ...string) {
	c.a.Send(cmds...)
	c.b.Send(cmds...)
}

func (c *crossCheck) Assert(term string) {
	c.a.Assert(term)
	c.b.Assert(term)
}

func (c *crossCheck) Push() {
	c.a.Push()
	c.b.Push()
}

func (c *crossCheck) Pop(n int) {
	c.a.Pop(n)
	c.b.Pop(n)
}

func (c *crossCheck) Check(ctx context.Context, assumptions ...string) (Status, error) {
	c.reason, c.core = "", nil
	st, err := c.a.Check(ctx, assumptions...)
	if err != nil || st != Unsat {
		return st, err
	}
	var core []string
	if len(assumptions) > 0 {
		if core, err = c.a.UnsatCore(ctx); err != nil {
			c.reason = err.Error()
			return Unknown, err
		}
	}
	start := time.Now()
	st, err = c.b.Check(ctx, core...)
	c.checks++
	c.time += time.Since(start)
	switch {
	case err != nil:
		c.reason = c.b.Reason()
		return Unknown, err
	case st == Sat:
		under := ""
		if len(core) > 0 {
			under = " under the assumptions " + strings.Join(core, " ")
		}
		err := &Error{msg: fmt.Sprintf("solvers disagree: %s answered unsat, %s sat%s", c.a.desc(), c.b.desc(), under)}
		c.reason = err.msg
		return Unknown, err
	case st == Unknown:
		c.reason = fmt.Sprintf("%s did not confirm the unsat answer of %s: %s", c.b.desc(), c.a.desc(), c.b.Reason())
		return Unknown, nil
	}
	c.core = core
	return Unsat, nil
}

func (c *crossCheck) Reason() string {
	if c.reason != "" {
		return c.reason
	}
	return c.a.Reason()
}

func (c *crossCheck) Values(ctx context.Context, terms ...string) ([]Value, error) {
	return c.a.Values(ctx, terms...)
}

// UnsatCore is the core the second solver confirmed.
func (c *crossCheck) UnsatCore(ctx context.Context) ([]string, error) {
	return append([]string(nil), c.core...), nil
}

func (c *crossCheck) Stats() Stats {
	s := c.a.Stats()
	s.CrossChecks, s.CrossTime = c.checks, c.time
	return s
}

func (c *crossCheck) Close() error {
	c.a.Close()
	c.b.Close()
	return nil
}
