package compile

import (
	"strconv"
	"strings"

	"ftmc/promela"
	"ftmc/trace"
)

// mscPrefix marks a printf whose output is a local event of a message
// sequence chart, as in Spin's own charts (spin -M, iSpin).
const mscPrefix = "MSC:"

// localEvents is the local event of step k of a path when that step is a
// printf("MSC: ...") (a suspicion, a crash, ... drawn as a box on the
// process's lifeline): the text after the marker, formatted with the values
// in the state before the step. A printf inside a d_step is not a step of
// its own and draws nothing.
func (md *Model) localEvents(k int, path []pathStep) []trace.Event {
	s := path[k]
	if s.t.elem == nil {
		return nil
	}
	pf, ok := s.t.elem.stmt.(*promela.PrintfStmt)
	if !ok || !strings.HasPrefix(strings.TrimSpace(pf.Format), mscPrefix) {
		return nil
	}
	m := &md.m
	if !md.enter(k, s.pid) {
		return nil
	}
	defer func() { m.fault = "" }()
	c := &comp{p: md.p, pt: s.t.pt}
	nerr := len(md.p.errs)
	args := make([]int32, len(pf.Args))
	for i, a := range pf.Args {
		fn := c.expr(a)
		if len(md.p.errs) > nerr {
			// An argument that does not compile (it is never executed by
			// the verifier): draw the format as written.
			md.p.errs = md.p.errs[:nerr]
			args = nil
			break
		}
		args[i] = fn(m)
	}
	text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(pf.Format), mscPrefix))
	if args != nil {
		text = md.sprintf(text, args)
	}
	text = strings.TrimSpace(strings.NewReplacer(`\n`, " ", `\t`, " ").Replace(text))
	if ev, ok := md.dropEvent(text, k, path); ok {
		return []trace.Event{ev}
	}
	return []trace.Event{{Type: "local", Text: text, Partner: -1}}
}

// dropEvent is the message that step k of a path drops, when its local
// event says so: printf("MSC: drop MSG to DEST") in the branch of a send
// that finds its channel full (:: full(c) -> printf(...)). The channel is
// that of the full(c) guard the process passed earlier in the step, and
// its reader is where the message was going; without such a guard, both
// are unknown.
func (md *Model) dropEvent(text string, k int, path []pathStep) (trace.Event, bool) {
	rest, ok := strings.CutPrefix(text, "drop ")
	if !ok {
		return trace.Event{}, false
	}
	msg, _, ok := strings.Cut(rest, " to ")
	if !ok || msg == "" {
		return trace.Event{}, false
	}
	ev := trace.Event{Type: "send", Msg: msg, Partner: -1, Dropped: true}
	for j := k - 1; j >= 0 && path[j].pid == path[k].pid; j-- {
		if id, ok := md.fullGuard(j, path); ok {
			ev.Chan, ev.Partner = md.chanName(id), md.reader(id)
			break
		}
	}
	return ev, true
}

// fullGuard is the channel of step j of a path when that step is a guard
// full(c), evaluated in the state before it.
func (md *Model) fullGuard(j int, path []pathStep) (int32, bool) {
	s := path[j]
	if s.t.elem == nil {
		return 0, false
	}
	es, ok := s.t.elem.stmt.(*promela.ExprStmt)
	if !ok {
		return 0, false
	}
	call, ok := es.X.(*promela.CallExpr)
	if !ok || call.Fun != promela.BuiltinFull || len(call.Args) != 1 {
		return 0, false
	}
	m := &md.m
	if !md.enter(j, s.pid) {
		return 0, false
	}
	defer func() { m.fault = "" }()
	c := &comp{p: md.p, pt: s.t.pt}
	nerr := len(md.p.errs)
	fn := c.expr(call.Args[0])
	if len(md.p.errs) > nerr {
		md.p.errs = md.p.errs[:nerr]
		return 0, false
	}
	id := fn(m)
	if m.fault != "" || m.chanOff(id, "send") < 0 {
		return 0, false
	}
	return id, true
}

// sprintf formats as Promela's printf: %d %i %u %x %X %o %c, %e for the
// name of an mtype constant, %% for a percent sign.
func (md *Model) sprintf(format string, args []int32) string {
	var b strings.Builder
	next := 0
	arg := func() int32 {
		if next < len(args) {
			next++
			return args[next-1]
		}
		return 0
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' || i+1 == len(format) {
			b.WriteByte(ch)
			continue
		}
		i++
		switch format[i] {
		case 'd', 'i':
			b.WriteString(strconv.Itoa(int(arg())))
		case 'u':
			b.WriteString(strconv.FormatUint(uint64(uint32(arg())), 10))
		case 'x':
			b.WriteString(strconv.FormatUint(uint64(uint32(arg())), 16))
		case 'X':
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(uint32(arg())), 16)))
		case 'o':
			b.WriteString(strconv.FormatUint(uint64(uint32(arg())), 8))
		case 'c':
			b.WriteRune(rune(arg()))
		case 'e':
			v := arg()
			name := ""
			if ms := md.p.prog.Mtype(""); ms != nil {
				name = ms.ConstName(int64(v))
			}
			if name == "" {
				name = strconv.Itoa(int(v))
			}
			b.WriteString(name)
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}
