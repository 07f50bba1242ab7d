package compile

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"ftmc/promela"
)

// program is the compiled, read-only part of a model, shared by forks.
type program struct {
	prog *promela.Program
	name string

	hidden   int // size of the hidden prefix of the working vector
	segStart int // offset of the first segment (hidden prefix + globals)

	vars    map[*promela.Symbol]*varInfo
	globals []*varInfo // in order of declaration (hidden ones included)

	procs    []*procType // proctypes and init, in order of declaration
	byDecl   map[*promela.ProcDecl]*procType
	chans    map[*promela.ChanInit]*chanType
	chanList []*chanType // in order of declaration
	trans    []*trans    // by id

	// Every segment starts with a header of hdr bytes, a code that names
	// its type and holds its program counter (processes) or its length
	// (channels); codeSeg maps codes to segment types.
	hdr     int
	codeSeg []*segType

	usesLast bool
	lastOff  int

	initial []byte // the initial state (without the hidden prefix)
	codes   map[*element]*code

	// safe says, per proctype (procType.index) and location, whether the
	// location's transitions may form an ample set (por.go); nil when
	// the program admits no partial-order reduction.
	safe [][]bool
	// chanSafe lists, per proctype and safe location, its channel
	// operations on exclusive channels: safe only while the channel can
	// take (send) or give (receive) a message.
	chanSafe [][][]*trans
	// access says, per proctype, which channels its processes can
	// reach, and dynChan, per transition id, whether it is a channel
	// operation through its process's own chan variable, safe only where
	// the channel is exclusive to the process in the state (porchan.go);
	// both nil when the program has no such operation.
	access  []*chanAccess
	dynChan []bool
	// merge says, per proctype and location, whether a step that reaches
	// the location goes on with its statement (merge.go); nil when the
	// program merges nothing.
	merge [][]bool

	// plain: see compileProgram.
	plain bool

	errs []error
}

func (p *program) errorf(pos promela.Pos, format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...)))
}

// procType is a compiled proctype (or init).
type procType struct {
	decl   *promela.ProcDecl
	index  int // in program.procs
	name   string
	base   int // the segment header is base + the program counter
	size   int // bytes of a process segment
	locals []*varInfo
	params []*varInfo

	nstates int
	start   int       // initial state
	end     int       // the end state (-end-)
	trans   [][]trans // by state
	valid   []bool    // valid end states: the end state and end labels
	prog    []bool    // progress states
	accept  []bool    // acceptance states
	labels  map[string]int
	elems   []*element

	// head is the state where the main loop of a ByMC process starts (the
	// first top-level statement that has a label or is a do), or -1; the
	// states before it, inInit, are the process's initialisation.
	head   int
	inInit []bool

	provided evalFn

	// spec is the parameter the variants are specialised on, and
	// variants holds them (spec.go); nil when the proctype has none.
	spec     *varInfo
	specOff  int
	variants *specTable
	// plain is trans and provided, as a variant (spec.go).
	plain variant

	// chanLocals are the locals with channel initializers, created with
	// the process in order of declaration; inits the other initialized
	// locals, in the same order.
	inits []localInit
}

// localInit is one local variable set when a process starts.
type localInit struct {
	v     *varInfo
	value evalFn          // scalar initializer (all elements of an array)
	list  []evalFn        // array initializer list
	ch    *chanType       // channel initializer (all elements of an array)
	field []fieldInitItem // structure fields with initializers
}

type fieldInitItem struct {
	off   int
	c     cell
	value int32
}

// Compile builds the model of a resolved program. The program must be
// concrete: parametric models need values (promela.Instantiate) first.
func Compile(prog *promela.Program) (*Model, error) {
	return compileProgram(prog, false)
}

// compileProgram is Compile; plain compiles every expression as written,
// without variants, tabulated expressions or fused tests (for the tests
// that compare them with it).
func compileProgram(prog *promela.Program, plain bool) (*Model, error) {
	if err := prog.RequireConcrete(); err != nil {
		return nil, err
	}
	p := &program{
		prog:   prog,
		plain:  plain,
		name:   filepath.Base(prog.Filename),
		vars:   map[*promela.Symbol]*varInfo{},
		byDecl: map[*promela.ProcDecl]*procType{},
		chans:  map[*promela.ChanInit]*chanType{},
	}
	p.layoutGlobals()
	decls := append([]*promela.ProcDecl{}, prog.Procs...)
	if prog.Init != nil {
		decls = append(decls, prog.Init)
	}
	// Processes in order of declaration: their tags, and the order in
	// which active ones start.
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].Keyword.Before(decls[j].Keyword) })
	if err := startsProcess(prog); err != nil {
		return nil, err
	}
	for _, d := range decls {
		p.newProcType(d)
	}
	for _, pt := range p.procs {
		p.buildAutomaton(pt)
	}
	p.layoutSegments()
	if len(p.errs) == 0 {
		for _, pt := range p.procs {
			p.compileProc(pt)
		}
	}
	if len(p.errs) == 0 {
		p.buildInitial(decls)
		p.porTable()
		p.mergeTable()
		p.chainTable()
		if !plain {
			p.specParams()
		}
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return newModel(p), nil
}

// startsProcess reports an error when no process starts: no init and no
// proctype active with at least one instance. Such a model has one state
// and no step, and every property would hold without anything checked;
// Spin refuses it too ("no runable process").
func startsProcess(prog *promela.Program) error {
	if prog.Init != nil {
		return nil
	}
	for _, d := range prog.Procs {
		if d.Active && d.Instances > 0 {
			return nil
		}
	}
	for _, d := range prog.Procs {
		if d.Active {
			return fmt.Errorf("%s: no process runs: active [0] proctype %s starts no instance, and the model has no init", d.Keyword, d.ProcName())
		}
	}
	if len(prog.Procs) > 0 {
		d := prog.Procs[0]
		return fmt.Errorf("%s: no process runs: no proctype is active (%s is declared without active) and the model has no init", d.Keyword, d.ProcName())
	}
	return fmt.Errorf("%s: no process runs: the model has no active proctype and no init", promela.MakePos(&prog.Filename, 1, 1))
}

// layoutGlobals places the global variables: hidden ones in the prefix,
// the others after it.
func (p *program) layoutGlobals() {
	for _, v := range p.prog.Globals {
		if v.Vis == promela.HIDDEN {
			p.hidden += p.addGlobal(v, p.hidden, true)
		}
	}
	off := p.hidden
	for _, v := range p.prog.Globals {
		if v.Vis != promela.HIDDEN {
			off += p.addGlobal(v, off, false)
		}
	}
	if p.usesLastIn() {
		p.usesLast = true
		p.lastOff = off
		off++
	}
	p.segStart = off
}

func (p *program) addGlobal(v *promela.VarDecl, off int, hidden bool) int {
	if v.Name.Sym == nil || v.Name.Sym.Type == nil {
		return 0
	}
	t := v.Name.Sym.Type
	vi := &varInfo{decl: v, sym: v.Name.Sym, name: v.Name.Name, typ: t, off: off, size: sizeOf(t), hidden: hidden}
	p.vars[v.Name.Sym] = vi
	p.globals = append(p.globals, vi)
	if v.Chan != nil {
		p.chanType(v)
	}
	return vi.size
}

// usesLastIn reports whether the program reads _last (Spin then keeps the
// last pid to move in the state).
func (p *program) usesLastIn() bool {
	found := false
	for _, d := range p.prog.Decls {
		promela.Inspect(d, func(n promela.Node) bool {
			if id, ok := n.(*promela.Ident); ok && id.Sym != nil && id.Sym.Kind == promela.SymPredef && id.Sym.Predef == promela.PredefLast {
				found = true
			}
			return !found
		})
	}
	return found
}

// chanType returns the layout of the channels a declaration creates.
func (p *program) chanType(v *promela.VarDecl) *chanType {
	if ct := p.chans[v.Chan]; ct != nil {
		return ct
	}
	ct := newChanType(v.Name.Name, v.Chan)
	if v.Chan.Size < 0 {
		p.errorf(v.Chan.Lbrack, "the capacity of channel %s is not known", v.Name.Name)
	}
	if v.Chan.Size > 255 {
		p.errorf(v.Chan.Lbrack, "channel %s holds %d messages; at most 255 are supported", v.Name.Name, v.Chan.Size)
	}
	p.chans[v.Chan] = ct
	p.chanList = append(p.chanList, ct)
	return ct
}

// layoutSegments numbers the segment headers (every state of every
// proctype, every length of every channel type) and places the locals.
func (p *program) layoutSegments() {
	next := 0
	var segs []*segType
	for _, pt := range p.procs {
		st := &segType{proc: pt, base: next}
		pt.base = next
		next += pt.nstates
		segs = append(segs, st)
	}
	for _, ct := range p.chanList {
		st := &segType{ch: ct, base: next}
		ct.base = next
		next += ct.slots + 1
		segs = append(segs, st)
	}
	p.hdr = 1
	if next > 256 {
		p.hdr = 2
	}
	if next > 1<<16 {
		// At the proctype that crosses the bound, if one does.
		at := p.prog.Pos()
		for _, pt := range p.procs {
			if pt.base+pt.nstates > 1<<16 && pt.decl != nil {
				at = pt.decl.Keyword
				break
			}
		}
		p.errorf(at, "the model has too many states and channel types (%d program counters and channel lengths; at most 65536)", next)
		return
	}
	p.codeSeg = make([]*segType, next)
	for _, st := range segs {
		n := 0
		switch {
		case st.proc != nil:
			pt := st.proc
			n = pt.nstates
			off := p.hdr
			for _, v := range pt.locals {
				v.off = off
				off += v.size
			}
			pt.size = off
			st.size = off
		default:
			ct := st.ch
			n = ct.slots + 1
			ct.hdr = p.hdr
			ct.size = p.hdr + ct.slots*ct.msgSize
			st.size = ct.size
		}
		for i := 0; i < n; i++ {
			p.codeSeg[st.base+i] = st
		}
	}
}

// code reads the segment header at off.
func (p *program) code(v []byte, off int) int {
	if p.hdr == 1 {
		return int(v[off])
	}
	return int(v[off]) | int(v[off+1])<<8
}

func (p *program) putCode(v []byte, off, c int) {
	v[off] = byte(c)
	if p.hdr == 2 {
		v[off+1] = byte(c >> 8)
	}
}

// segAt returns the type of the segment at off.
func (p *program) segAt(v []byte, off int) *segType { return p.codeSeg[p.code(v, off)] }

// newProcType lays out a proctype's segment.
func (p *program) newProcType(d *promela.ProcDecl) {
	pt := &procType{decl: d, name: d.ProcName(), labels: map[string]int{}, index: len(p.procs)}
	p.procs = append(p.procs, pt)
	p.byDecl[d] = pt
}

// buildAutomaton builds the proctype's states and transitions, then lays
// out its segment (the program counter's width depends on the number of
// states).
func (p *program) buildAutomaton(pt *procType) {
	d := pt.decl
	f, body := buildFlow(d, p.remoteLabels(d))
	for _, err := range f.errs {
		p.errs = append(p.errs, err)
	}
	tb := &table{f: f}
	for _, e := range f.elems {
		if e != nil && e.kind == eUnless {
			tb.nUnless++
		}
	}
	tb.putSeq(body)
	tb.retrans()
	for _, err := range f.errs {
		p.errs = append(p.errs, err)
	}
	f.errs = nil
	pt.nstates = f.elcnt
	pt.elems = f.elems
	pt.start = f.huntele(body.frst, body.frst.status).seqno
	pt.end = body.last.seqno
	pt.valid = make([]bool, pt.nstates)
	pt.prog = make([]bool, pt.nstates)
	pt.accept = make([]bool, pt.nstates)
	pt.valid[pt.end] = true
	pt.head, pt.inInit = -1, nil
	if e := mainLoop(f, d); e != nil {
		pt.head = f.huntele(e, e.status).seqno
	}
	for name, e := range f.labels {
		pt.labels[name] = e.seqno
		switch promela.KindOfLabel(name) {
		case promela.LabelEnd:
			pt.valid[e.seqno] = true
		case promela.LabelProgress:
			pt.prog[e.seqno] = true
		case promela.LabelAccept:
			pt.accept[e.seqno] = true
		}
	}
	// An end state whose only step is a join makes the join's target an
	// end state too (pan's retrans).
	for i := 1; i < len(tb.trans) && i < pt.nstates; i++ {
		ts := tb.trans[i]
		if len(ts) == 1 && ts[0].elem.kind == eDot && pt.valid[i] && ts[0].to > 0 && ts[0].to < pt.nstates {
			pt.valid[ts[0].to] = true
		}
	}
	// Checks pan makes when it loads the tables.
	for i := 1; i < len(tb.trans); i++ {
		nelse := 0
		for _, t := range tb.trans[i] {
			if t.elem.kind == eElse {
				nelse++
			}
			if t.to == i && isSkip(t.elem) && !isPrint(t.elem) && d.Kind != promela.KindNever {
				p.errorf(t.elem.pos, "%s has an unconditional self-loop (a step that only returns to itself)", pt.name)
			}
		}
		if nelse > 1 {
			p.errorf(f.elems[i].pos, "%s: a state inherits %d else statements", pt.name, nelse)
		}
	}
	// Locals: parameters first, then in order of declaration (their
	// offsets are set by layoutSegments).
	for _, v := range d.Locals {
		if v.Name.Sym == nil || v.Name.Sym.Type == nil {
			continue
		}
		t := v.Name.Sym.Type
		vi := &varInfo{decl: v, sym: v.Name.Sym, name: v.Name.Name, typ: t, size: sizeOf(t), local: true, proc: pt}
		p.vars[v.Name.Sym] = vi
		pt.locals = append(pt.locals, vi)
		if v.Name.Sym.IsParam {
			pt.params = append(pt.params, vi)
		}
		if v.Chan != nil {
			if v.Late {
				p.errorf(v.Name.NamePos, "place the declaration of channel %s at the start of %s (Spin creates channels when a process starts)", v.Name.Name, pt.name)
			}
			p.chanType(v)
		}
	}
	for _, s := range f.extra {
		vi := &varInfo{sym: s, name: s.Name, typ: s.Type, size: sizeOf(s.Type), local: true, proc: pt, decl: &promela.VarDecl{Name: &promela.Ident{NamePos: s.Pos, Name: s.Name, Sym: s}}}
		p.vars[s] = vi
		pt.locals = append(pt.locals, vi)
	}
	pt.trans = make([][]trans, pt.nstates)
	for i := 1; i < len(tb.trans) && i < pt.nstates; i++ {
		if len(tb.trans[i]) == 0 {
			continue
		}
		pt.trans[i] = make([]trans, len(tb.trans[i]))
		for k, r := range tb.trans[i] {
			t := &pt.trans[i][k]
			*t = trans{
				id:     int32(len(p.trans)),
				pt:     pt,
				from:   i,
				to:     r.to,
				elem:   r.elem,
				atomic: r.atom&stAtom != 0,
				etrans: r.etrans,
			}
			p.trans = append(p.trans, t)
		}
	}
	if len(p.trans) > 1<<30 {
		p.errorf(d.Keyword, "too many transitions")
	}
	pt.inInit = initStates(pt)
}

// compileProc compiles the statements of a proctype's transitions and its
// initializers.
func (p *program) compileProc(pt *procType) {
	c := &comp{p: p, pt: pt}
	// Copies of a statement's transition (in if/do states) share its code.
	for _, ts := range pt.trans {
		for k := range ts {
			c.compileTrans(&ts[k])
		}
	}
	if pt.decl.Provided != nil {
		pt.provided = c.expr(pt.decl.Provided)
	}
	pt.plain = variant{trans: pt.trans, provided: pt.provided}
	for _, v := range pt.locals {
		if v.decl.Late || v.sym.IsParam {
			continue
		}
		if li, ok := c.localInit(v); ok {
			pt.inits = append(pt.inits, li)
		}
	}
}

// localInit compiles how a local is set when its process starts.
func (c *comp) localInit(v *varInfo) (localInit, bool) {
	d := v.decl
	li := localInit{v: v}
	switch {
	case d.Chan != nil:
		li.ch = c.p.chans[d.Chan]
	case d.Init != nil:
		li.value = c.expr(d.Init)
	case len(d.InitList) > 0:
		for _, x := range d.InitList {
			li.list = append(li.list, c.expr(x))
		}
	default:
		li.field = structInits(v.typ, 0)
		if len(li.field) == 0 {
			return li, false
		}
	}
	return li, true
}

// structInits lists the fields with initializers inside a value of type t
// (typedef fields can have constant initializers).
func structInits(t *promela.Type, off int) []fieldInitItem {
	var out []fieldInitItem
	switch t.Kind {
	case promela.TArray:
		es := sizeOf(t.Elem)
		inner := structInits(t.Elem, 0)
		if len(inner) == 0 {
			return nil
		}
		for i := int64(0); i < t.Len; i++ {
			for _, f := range inner {
				f.off += off + int(i)*es
				out = append(out, f)
			}
		}
	case promela.TStruct:
		for _, f := range t.Fields {
			if f.Decl != nil && f.Decl.Init != nil {
				if v, ok := promela.ConstValue(f.Decl.Init); ok {
					scalars(f.Type, off, func(o int, st *promela.Type) {
						out = append(out, fieldInitItem{off: o, c: cellOf(st), value: int32(v)})
					})
				}
			} else {
				out = append(out, structInits(f.Type, off)...)
			}
			off += sizeOf(f.Type)
		}
	}
	return out
}

// remoteLabels lists the labels of d that the program refers to from
// elsewhere (P[i]@L, in processes, claims, formulas and propositions).
func (p *program) remoteLabels(d *promela.ProcDecl) map[string]bool {
	out := map[string]bool{}
	for _, decl := range p.prog.Decls {
		promela.Inspect(decl, func(n promela.Node) bool {
			if r, ok := n.(*promela.RemoteRef); ok && r.Label != nil && r.Proc != nil && r.Proc.Sym != nil && r.Proc.Sym.Decl == promela.Node(d) {
				out[r.Label.Name] = true
			}
			return true
		})
	}
	return out
}

// describe names the proctypes for errors.
func (p *program) describe() string {
	var names []string
	for _, pt := range p.procs {
		names = append(names, pt.name)
	}
	return strings.Join(names, ", ")
}
