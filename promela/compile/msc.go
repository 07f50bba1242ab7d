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
	return []trace.Event{{Type: "local", Text: text, Partner: -1}}
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
