package compile

import (
	"fmt"

	"ftmc/promela"
)

// This file builds a proctype's automaton the way Spin does: statements
// become elements linked into sequences (Spin's flow.c), elements become
// states with transitions (pangen2.c's put_seq), and structural states
// (if, do, atomic, blocks) take over the transitions of the statements they
// lead to (pan's retrans). Element numbers are Spin's state numbers: they
// are handed out in the order Spin's parser creates elements, so that
// pc_value() and the automaton dumps agree with pan's.

// elemKind is what an element stands for.
type elemKind uint8

const (
	eStmt   elemKind = iota // a basic statement
	eElse                   // else
	eGoto                   // goto or break
	eDot                    // the join point after an if, do or unless
	eBreak                  // the exit of a do loop
	eIf                     // if: its options are sub-sequences
	eDo                     // do
	eAtomic                 // atomic { }
	eDStep                  // d_step { }
	eBlock                  // a plain { } sequence
	eUnless                 // unless: sub[0] is the main sequence, sub[1] the escape
	eEnd                    // the end of a process body (Spin's -end-)
)

// Element status bits, as in Spin.
const (
	stDone  = 1  // put out already
	stAtom  = 2  // part of an atomic sequence, not its last step
	stLAtom = 4  // the last step of an atomic sequence
	stDAtom = 32 // part of a d_step
)

// element is a node of the flow graph: a statement, or a structural node.
type element struct {
	seqno  int // the state number
	kind   elemKind
	stmt   promela.Stmt // the statement (basic statements; the source of compound ones)
	pos    promela.Pos
	nxt    *element
	sub    []*sequence // eIf, eDo: options; eUnless: main and escape
	body   *sequence   // eAtomic, eDStep, eBlock
	status uint8
	esc    []*sequence // escapes that apply to this element, most recent first

	// eGoto: the jump's destination, by label or by loop (break).
	label string
	loop  promela.Stmt
	jump  *element // resolved destination

	dstep *element // the d_step element this one is inside of, if any
}

// sequence is a list of elements linked by nxt, from frst to last.
// extent is last as it was when the sequence was closed (an if appends its
// join point to each option afterwards).
type sequence struct {
	frst, last, extent *element
}

// node is a parsed statement that is not yet part of a sequence (Spin's
// Lextok between parsing and add_seq).
type node struct {
	kind   elemKind
	stmt   promela.Stmt
	pos    promela.Pos
	labels []string
	sub    []*sequence
	body   *sequence
	loop   promela.Stmt // eDo: the loop statement that break refers to
	label  string       // eGoto
	target promela.Stmt // eGoto: break's loop
}

// flow builds the flow graph of one proctype.
type flow struct {
	proc   *promela.ProcDecl
	elcnt  int
	stack  []*sequence
	labels map[string]*element
	breaks map[promela.Stmt]*element
	elems  []*element // by seqno
	errs   []error
	// inlineDepth counts the inline bodies being built: Spin's lexer
	// expands select statements only outside them.
	inlineDepth int
	// extra are the locals the expansion of for (m in c) adds.
	extra []*promela.Symbol
}

func (f *flow) errorf(pos promela.Pos, format string, args ...any) {
	f.errs = append(f.errs, fmt.Errorf("%s: %s", pos, fmt.Sprintf(format, args...)))
}

func (f *flow) newElement(kind elemKind, stmt promela.Stmt, pos promela.Pos) *element {
	e := &element{seqno: f.elcnt, kind: kind, stmt: stmt, pos: pos}
	f.elcnt++
	for len(f.elems) <= e.seqno {
		f.elems = append(f.elems, nil)
	}
	f.elems[e.seqno] = e
	return e
}

func (f *flow) cur() *sequence { return f.stack[len(f.stack)-1] }

func (f *flow) openSeq() { f.stack = append(f.stack, &sequence{}) }

func (f *flow) closeSeq(pos promela.Pos) *sequence {
	s := f.cur()
	f.stack = f.stack[:len(f.stack)-1]
	s.extent = s.last
	if s.last == nil {
		// Spin: "sequence must have at least one statement". The parser
		// does not produce empty sequences; a block of declarations only
		// would be one.
		f.errorf(pos, "a sequence must have at least one statement")
		sk := f.newElement(eStmt, skipStmt(pos), pos)
		s.frst, s.last, s.extent = sk, sk, sk
	}
	return s
}

// addEl appends e to s. A goto carrying an end, accept or progress label
// gets a skip in front that takes over the label (a jump is not a state).
func (f *flow) addEl(e *element, s *sequence) {
	if e.kind == eGoto {
		for name, l := range f.labels {
			if l == e && promela.KindOfLabel(name) != promela.LabelPlain {
				y := f.newElement(eStmt, skipStmt(e.pos), e.pos)
				f.labels[name] = y
				f.addEl(y, s)
				break
			}
		}
	}
	if s.frst == nil {
		s.frst = e
	} else {
		s.last.nxt = e
	}
	s.last = e
}

// addSeq adds a parsed statement to the current sequence (Spin's add_seq:
// labels go to the element created for the statement; if, do and unless
// add their own elements).
func (f *flow) addSeq(n *node) {
	if n == nil {
		return
	}
	var e *element
	switch n.kind {
	case eIf, eDo:
		e = f.ifSeq(n)
	case eUnless:
		e = f.unlessSeq(n)
	default:
		e = f.newElement(n.kind, n.stmt, n.pos)
		e.sub, e.body = n.sub, n.body
		e.label, e.loop = n.label, n.target
	}
	for _, l := range n.labels {
		f.labels[l] = e
	}
	if n.kind != eIf && n.kind != eDo && n.kind != eUnless {
		f.addEl(e, f.cur())
	}
}

// ifSeq creates the elements of an if or do (Spin's if_seq): the node
// itself, the join point appended to every option, and for do the exit.
func (f *flow) ifSeq(n *node) *element {
	e := f.newElement(n.kind, n.stmt, n.pos)
	t := f.newElement(eDot, nil, n.pos)
	// else goes last.
	opts := n.sub
	for i, o := range opts {
		if o.frst != nil && o.frst.kind == eElse && i != len(opts)-1 {
			rest := append(append([]*sequence{}, opts[:i]...), opts[i+1:]...)
			opts = append(rest, o)
			break
		}
	}
	e.sub = opts
	for _, o := range opts {
		f.addEl(t, o)
	}
	if n.kind == eDo {
		f.addEl(t, f.cur())
		t = f.newElement(eBreak, nil, n.pos)
		if n.loop != nil {
			f.breaks[n.loop] = t
		}
	}
	f.addEl(e, f.cur())
	f.addEl(t, f.cur())
	return e
}

// unlessSeq creates the elements of an unless (Spin's unless_seq).
func (f *flow) unlessSeq(n *node) *element {
	e := f.newElement(eUnless, n.stmt, n.pos)
	t := f.newElement(eDot, nil, n.pos)
	e.sub = n.sub
	for _, z := range n.sub {
		f.addEl(t, z)
	}
	f.attachEscape(n.sub[0], n.sub[1])
	f.addEl(e, f.cur())
	f.addEl(t, f.cur())
	return e
}

func (f *flow) attachEscape(n, e *sequence) {
	for x := n.frst; x != nil; x = x.nxt {
		f.escapeEl(x, e)
		if x == n.extent {
			break
		}
	}
}

func (f *flow) escapeEl(x *element, e *sequence) {
	for _, z := range x.esc {
		if z == e {
			return
		}
	}
	for _, z := range x.esc {
		f.attachEscape(z, e)
	}
	x.esc = append([]*sequence{e}, x.esc...)
	switch x.kind {
	case eUnless:
		f.attachEscape(x.sub[0], e)
	case eIf, eDo:
		for _, z := range x.sub {
			f.attachEscape(z, e)
		}
	case eDStep:
		f.escapeEl(x.body.frst, e)
	case eAtomic, eBlock:
		f.attachEscape(x.body, e)
	}
}

// makeAtomic marks the elements of an atomic (added 0) or d_step (added
// stDAtom) sequence: all are atomic except the last step.
func makeAtomic(s *sequence, added uint8) {
	walkAtomic(s.frst, s.last, added)
	last := s.last
	switch last.kind {
	case eAtomic, eBlock:
		makeAtomic(last.body, added)
	case eUnless:
		makeAtomic(last.sub[0], added)
	default:
		last.status &^= stAtom
		last.status |= stLAtom
	}
}

func walkAtomic(a, b *element, added uint8) {
	for x := a; x != nil; x = x.nxt {
		x.status |= stAtom | added
		switch x.kind {
		case eAtomic:
			// An atomic inside an atomic or d_step is a plain sequence.
			x.kind = eBlock
			walkAtomic(x.body.frst, x.body.last, added)
		case eDStep:
			if added != 0 {
				x.kind = eBlock
				walkAtomic(x.body.frst, x.body.last, added)
			}
		case eBlock:
			walkAtomic(x.body.frst, x.body.last, added)
		}
		for _, h := range x.sub {
			walkAtomic(h.frst, h.last, added)
		}
		if x == b {
			break
		}
	}
}

// ---------------------------------------------------------------------------
// From syntax to elements

func skipStmt(pos promela.Pos) promela.Stmt {
	return &promela.ExprStmt{X: &promela.IntLit{ValuePos: pos, Value: 1, Lit: "skip"}}
}

// buildFlow builds the flow graph of a process body. It returns the body
// sequence; element 0 is unused, as in Spin.
func buildFlow(d *promela.ProcDecl, remoteLabels map[string]bool) (*flow, *sequence) {
	f := &flow{proc: d, elcnt: 1, labels: map[string]*element{}, breaks: map[promela.Stmt]*element{}, elems: []*element{nil}}
	f.openSeq()
	f.stmts(d.Body.Stmts)
	end := &node{kind: eEnd, pos: d.Body.Rbrace}
	f.addSeq(end)
	body := f.closeSeq(d.Body.Rbrace)
	f.resolveJumps()
	for name := range remoteLabels {
		f.fixDest(name)
	}
	markDSteps(body, nil)
	return f, body
}

func (f *flow) stmts(list []promela.Stmt) {
	for _, s := range list {
		f.addSeq(f.parse(s))
	}
}

// seqOf parses a statement list into a sequence of its own.
func (f *flow) seqOf(list []promela.Stmt, pos promela.Pos) *sequence {
	f.openSeq()
	f.stmts(list)
	return f.closeSeq(pos)
}

// parse turns a statement into a node, creating the elements of its parts
// in the order Spin's parser does. Some statements add steps to the
// current sequence on their own (declarations with initializers after the
// first statement, the start of for and select); parse returns nil for
// those that leave nothing else.
func (f *flow) parse(s promela.Stmt) *node {
	switch s := s.(type) {
	case *promela.LabeledStmt:
		n := f.parse(s.Stmt)
		if n == nil {
			n = &node{kind: eStmt, stmt: skipStmt(s.Colon), pos: s.Colon}
		}
		n.labels = append(n.labels, s.Label.Name)
		return n
	case *promela.ElseStmt:
		return &node{kind: eElse, stmt: s, pos: s.Else}
	case *promela.BreakStmt:
		return &node{kind: eGoto, stmt: s, pos: s.Break, target: s.Loop}
	case *promela.GotoStmt:
		return &node{kind: eGoto, stmt: s, pos: s.Goto, label: s.Label.Name}
	case *promela.IfStmt:
		return &node{kind: eIf, stmt: s, pos: s.If, sub: f.options(s.Options)}
	case *promela.DoStmt:
		return &node{kind: eDo, stmt: s, pos: s.Do, sub: f.options(s.Options), loop: s}
	case *promela.BlockStmt:
		return &node{kind: eBlock, stmt: s, pos: s.Body.Lbrace, body: f.seqOf(s.Body.Stmts, s.Body.Lbrace)}
	case *promela.InlineStmt:
		f.inlineDepth++
		body := f.seqOf(s.Body.Stmts, s.Name.NamePos)
		f.inlineDepth--
		return &node{kind: eBlock, stmt: s, pos: s.Name.NamePos, body: body}
	case *promela.AtomicStmt:
		seq := f.seqOf(s.Body.Stmts, s.Atomic)
		makeAtomic(seq, 0)
		return &node{kind: eAtomic, stmt: s, pos: s.Atomic, body: seq}
	case *promela.DStepStmt:
		seq := f.seqOf(s.Body.Stmts, s.DStep)
		makeAtomic(seq, stDAtom)
		return &node{kind: eDStep, stmt: s, pos: s.DStep, body: seq}
	case *promela.UnlessStmt:
		return f.unless(s)
	case *promela.DeclStmt:
		for _, v := range s.Vars {
			if !v.Late {
				continue
			}
			if a := lateInit(v); a != nil {
				f.addSeq(&node{kind: eStmt, stmt: a, pos: v.Name.NamePos})
			}
		}
		return nil
	case *promela.XStmt:
		return nil
	case *promela.ForStmt:
		return f.forLoop(s)
	case *promela.SelectStmt:
		return f.selectLoop(s)
	}
	return &node{kind: eStmt, stmt: s, pos: s.Pos()}
}

// options parses the options of an if or do; redundant skips are removed
// as Spin's prune_opts does.
func (f *flow) options(opts []*promela.Option) []*sequence {
	var seqs []*sequence
	for _, o := range opts {
		seq := f.seqOf(o.Stmts, o.Sep)
		f.pruneSkips(seq)
		seqs = append(seqs, seq)
	}
	return seqs
}

// pruneSkips removes the second and later of consecutive unlabeled skips
// inside an option (Spin's check_sequence).
func (f *flow) pruneSkips(s *sequence) {
	cnt := 0
	var le *element
	for e := s.frst; e != nil; le, e = e, e.nxt {
		if isSkip(e) && !f.hasLabel(e) {
			cnt++
			if cnt > 1 && !isPrint(e) && e != s.frst && e != s.last && e != s.extent {
				le.nxt = e.nxt
				e.status |= stDone
				e = le
			}
		} else {
			cnt = 0
		}
	}
}

func (f *flow) hasLabel(e *element) bool {
	for _, l := range f.labels {
		if l == e {
			return true
		}
	}
	return false
}

func isPrint(e *element) bool {
	switch e.stmt.(type) {
	case *promela.PrintfStmt, *promela.PrintmStmt:
		return true
	}
	return false
}

// isSkip reports whether e is a statement Spin treats as a skip: printf,
// printm, or a constant 1 as a condition.
func isSkip(e *element) bool {
	if e.kind != eStmt {
		return false
	}
	switch s := e.stmt.(type) {
	case *promela.PrintfStmt, *promela.PrintmStmt:
		return true
	case *promela.ExprStmt:
		if l, ok := s.X.(*promela.IntLit); ok && l.Value == 1 {
			return true
		}
	}
	return false
}

// isConstCond reports whether e is a condition that is the constant v.
func isConstCond(e *element, v int64) bool {
	if e.kind != eStmt {
		return false
	}
	if s, ok := e.stmt.(*promela.ExprStmt); ok {
		if l, ok := s.X.(*promela.IntLit); ok && l.Value == v {
			return true
		}
	}
	return false
}

// unless parses stmt unless escape (Spin's do_unless).
func (f *flow) unless(s *promela.UnlessStmt) *node {
	no := f.parse(s.Stmt)
	es := f.parse(s.Escape)
	re := &node{kind: eUnless, stmt: s, pos: s.Unless}
	var esc *sequence
	if es != nil && es.kind == eBlock && len(es.labels) == 0 {
		esc = es.body
	} else {
		f.openSeq()
		f.addSeq(es)
		esc = f.closeSeq(s.Unless)
	}
	switch {
	case no != nil && no.kind == eBlock && len(no.labels) == 0:
		re.sub = []*sequence{no.body, esc}
	case no != nil && len(no.labels) > 0 && (no.kind == eBlock || no.kind == eAtomic || no.kind == eDStep):
		// L: atomic { ... } unless E is L: atomic { { ... } unless E }.
		re.sub = []*sequence{no.body, esc}
		f.openSeq()
		f.addSeq(re)
		inner := f.closeSeq(s.Unless)
		return &node{kind: no.kind, stmt: no.stmt, pos: no.pos, labels: no.labels, body: inner}
	default:
		f.openSeq()
		f.addSeq(no)
		re.sub = []*sequence{f.closeSeq(s.Unless), esc}
	}
	return re
}

// forLoop expands for (i : lo .. hi) { body } as Spin does:
//
//	i = lo; do :: i <= hi -> body; i++ :: else -> break od
//
// and for (i in a) with lo 0 and hi the array's last index.
func (f *flow) forLoop(s *promela.ForStmt) *node {
	pos := s.For
	lo, hi := s.Lo, s.Hi
	if s.In != nil {
		t := typeOfRef(s.In)
		if t != nil && t.Kind == promela.TChan {
			return f.forChan(s)
		}
		if t == nil || t.Kind != promela.TArray {
			f.errorf(pos, "for (... in %s): expected an array or a channel", promela.ExprString(s.In))
			return nil
		}
		lo = &promela.IntLit{ValuePos: pos, Value: 0, Lit: "0"}
		hi = &promela.IntLit{ValuePos: pos, Value: t.Len - 1, Lit: fmt.Sprint(t.Len - 1)}
	}
	f.addSeq(&node{kind: eStmt, stmt: &promela.AssignStmt{LHS: s.Var, EqPos: pos, RHS: lo}, pos: pos})
	f.openSeq()
	f.addSeq(&node{kind: eStmt, stmt: &promela.ExprStmt{X: &promela.BinaryExpr{X: s.Var, OpPos: pos, Op: promela.LEQ, Y: hi}}, pos: pos})
	f.stmts(s.Body.Stmts)
	return f.loopTail(s, s.Var, pos, true)
}

// forChan expands for (m in c), which runs m over the messages of channel
// c, as Spin does: with a counter of its own (a byte local),
//
//	t = 0; do :: t < len(c) -> c?m; c!m; body; t++ :: else -> break od
func (f *flow) forChan(s *promela.ForStmt) *node {
	pos := s.For
	tmp := &promela.Symbol{Name: fmt.Sprintf("_f0r_t3mp%d", len(f.extra)), Kind: promela.SymVar, Pos: pos, Type: &promela.Type{Kind: promela.TByte}, Proc: f.proc}
	f.extra = append(f.extra, tmp)
	id := &promela.Ident{NamePos: pos, Name: tmp.Name, Sym: tmp}
	f.addSeq(&node{kind: eStmt, stmt: &promela.AssignStmt{LHS: id, EqPos: pos, RHS: &promela.IntLit{ValuePos: pos, Lit: "0"}}, pos: pos})
	f.openSeq()
	length := &promela.CallExpr{Fun: promela.BuiltinLen, FunPos: pos, Args: []promela.Expr{s.In}, Rparen: pos}
	f.addSeq(&node{kind: eStmt, stmt: &promela.ExprStmt{X: &promela.BinaryExpr{X: id, OpPos: pos, Op: promela.LSS, Y: length}}, pos: pos})
	f.addSeq(&node{kind: eStmt, stmt: &promela.RecvStmt{Chan: s.In, OpPos: pos, Args: []promela.Expr{s.Var}}, pos: pos})
	f.addSeq(&node{kind: eStmt, stmt: &promela.SendStmt{Chan: s.In, OpPos: pos, Args: []promela.Expr{s.Var}}, pos: pos})
	f.stmts(s.Body.Stmts)
	return f.loopTail(s, id, pos, true)
}

// selectLoop expands select (i : lo .. hi) as Spin does. Spin's lexer
// rewrites a select whose bounds are written as decimal numbers (outside
// inline bodies, for a variable whose name is letters and digits) into
//
//	if :: i = lo :: i = lo+1 ... :: i = hi fi             (hi - lo <= 32)
//	i = lo; do :: (i < hi) -> i++ :: break od             (otherwise)
//
// and its parser turns any other select into
//
//	i = lo; do :: break :: i < hi -> i++ od
func (f *flow) selectLoop(s *promela.SelectStmt) *node {
	pos := s.Select
	id, isName := s.Var.(*promela.Ident)
	lo, loLit := s.Lo.(*promela.IntLit)
	hi, hiLit := s.Hi.(*promela.IntLit)
	if f.inlineDepth == 0 && isName && alnum(id.Name) && loLit && hiLit && decimal(lo.Lit) && decimal(hi.Lit) {
		a, b := lo.Value, hi.Value
		if a > b {
			f.errorf(pos, "bad range in select statement (%d .. %d)", a, b)
			return nil
		}
		if b-a <= 32 {
			var opts []*sequence
			for v := a; v <= b; v++ {
				f.openSeq()
				f.addSeq(&node{kind: eStmt, stmt: &promela.AssignStmt{LHS: s.Var, EqPos: pos, RHS: &promela.IntLit{ValuePos: pos, Value: v, Lit: fmt.Sprint(v)}}, pos: pos})
				opts = append(opts, f.closeSeq(pos))
			}
			return &node{kind: eIf, stmt: s, pos: pos, sub: opts}
		}
		f.addSeq(&node{kind: eStmt, stmt: &promela.AssignStmt{LHS: s.Var, EqPos: pos, RHS: s.Lo}, pos: pos})
		f.openSeq()
		f.addSeq(&node{kind: eStmt, stmt: &promela.ExprStmt{X: &promela.BinaryExpr{X: s.Var, OpPos: pos, Op: promela.LSS, Y: s.Hi}}, pos: pos})
		f.addSeq(&node{kind: eStmt, stmt: &promela.IncDecStmt{X: s.Var, TokPos: pos, Tok: promela.INC}, pos: pos})
		main := f.closeSeq(pos)
		f.openSeq()
		f.addSeq(&node{kind: eGoto, stmt: &promela.BreakStmt{Break: pos, Loop: s}, pos: pos, target: s})
		exit := f.closeSeq(pos)
		return &node{kind: eDo, stmt: s, pos: pos, sub: []*sequence{main, exit}, loop: s}
	}
	f.addSeq(&node{kind: eStmt, stmt: &promela.AssignStmt{LHS: s.Var, EqPos: pos, RHS: s.Lo}, pos: pos})
	f.openSeq()
	f.addSeq(&node{kind: eStmt, stmt: &promela.ExprStmt{X: &promela.BinaryExpr{X: s.Var, OpPos: pos, Op: promela.LSS, Y: s.Hi}}, pos: pos})
	return f.loopTail(s, s.Var, pos, false)
}

// loopTail closes the main option of a for or select with the increment,
// adds the exit option, and returns the do (Spin's for_body).
func (f *flow) loopTail(loop promela.Stmt, v promela.Expr, pos promela.Pos, withElse bool) *node {
	inc := &promela.AssignStmt{LHS: v, EqPos: pos, RHS: &promela.BinaryExpr{X: v, OpPos: pos, Op: promela.ADD, Y: &promela.IntLit{ValuePos: pos, Value: 1, Lit: "1"}}}
	f.addSeq(&node{kind: eStmt, stmt: inc, pos: pos})
	main := f.closeSeq(pos)
	f.openSeq()
	if withElse {
		f.addSeq(&node{kind: eElse, stmt: &promela.ElseStmt{Else: pos}, pos: pos})
	}
	f.addSeq(&node{kind: eGoto, stmt: &promela.BreakStmt{Break: pos, Loop: loop}, pos: pos, target: loop})
	exit := f.closeSeq(pos)
	return &node{kind: eDo, stmt: loop, pos: pos, sub: []*sequence{exit, main}, loop: loop}
}

func alnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func decimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// lateInit returns the assignment Spin executes where a local is declared
// after the first statement: the initializer, or 0.
func lateInit(v *promela.VarDecl) promela.Stmt {
	if v.Chan != nil {
		return nil
	}
	id := &promela.Ident{NamePos: v.Name.NamePos, Name: v.Name.Name, Sym: v.Name.Sym}
	var lhs promela.Expr = id
	if v.Len != nil {
		lhs = &promela.IndexExpr{X: id, Lbrack: v.Name.NamePos, Index: &promela.IntLit{ValuePos: v.Name.NamePos, Lit: "0"}}
	}
	var rhs promela.Expr = &promela.IntLit{ValuePos: v.Name.NamePos, Lit: "0"}
	switch {
	case v.Init != nil:
		rhs = v.Init
	case len(v.InitList) > 0:
		rhs = v.InitList[0]
	}
	if v.Name.Sym != nil && v.Name.Sym.Type != nil && v.Name.Sym.Type.Kind == promela.TStruct {
		return &lateStruct{VarDecl: v}
	}
	return &promela.AssignStmt{LHS: lhs, EqPos: v.Name.NamePos, RHS: rhs}
}

// lateStruct is a structure declared after the first statement: Spin makes
// it a step that changes nothing.
type lateStruct struct {
	promela.ExprStmt
	VarDecl *promela.VarDecl
}

func (s *lateStruct) Pos() promela.Pos { return s.VarDecl.Name.NamePos }

func typeOfRef(x promela.Expr) *promela.Type {
	switch x := x.(type) {
	case *promela.Ident:
		if x.Sym != nil {
			return x.Sym.Type
		}
	case *promela.IndexExpr:
		if t := typeOfRef(x.X); t != nil && t.Kind == promela.TArray {
			return t.Elem
		}
	case *promela.SelectorExpr:
		if x.Sel != nil && x.Sel.Sym != nil {
			return x.Sel.Sym.Type
		}
	}
	return nil
}

// fixDest prepares a label that another process refers to (P[i]@L): a
// label on a goto, which is no state of its own, is moved to a skip put in
// front of the goto, as Spin's fix_dest does.
func (f *flow) fixDest(name string) {
	e := f.labels[name]
	if e == nil || e.kind != eGoto {
		return
	}
	y := f.newElement(eGoto, e.stmt, e.pos)
	y.label, y.loop, y.jump, y.nxt, y.status, y.esc = e.label, e.loop, e.jump, e.nxt, e.status, e.esc
	e.kind, e.stmt = eStmt, skipStmt(e.pos)
	e.label, e.loop, e.jump = "", nil, nil
	e.nxt = y
}

// resolveJumps finds the destination of every goto and break.
func (f *flow) resolveJumps() {
	for _, e := range f.elems {
		if e == nil || e.kind != eGoto {
			continue
		}
		switch {
		case e.loop != nil:
			e.jump = f.breaks[e.loop]
		case e.label != "":
			e.jump = f.labels[e.label]
		}
		if e.jump == nil {
			f.errorf(e.pos, "cannot find the destination of %s", promela.StmtString(e.stmt))
		}
	}
}

// ---------------------------------------------------------------------------
// From elements to transitions

// rawTrans is a transition as pan.t lists it before retrans: a single
// transition of a state, or (structural) one option of an if, do, atomic
// or block.
type rawTrans struct {
	elem   *element // the statement; for options, the option's first element
	to     int      // next state (0: none)
	atom   uint8    // status bits of the statement (stAtom, stLAtom, stDAtom)
	escp   []int    // escape states
	tid    int      // identifies the statement (its element number)
	etrans int      // for escape copies: the escape state they come from
}

// table holds the transitions of each state while they are being built.
type table struct {
	f       *flow
	trans   [][]*rawTrans // by state; structural states have head != nil
	head    []bool        // structural list (options, before retrans)
	nUnless int
}

func (tb *table) set(state int, ts ...*rawTrans) {
	for len(tb.trans) <= state {
		tb.trans = append(tb.trans, nil)
		tb.head = append(tb.head, false)
	}
	tb.trans[state] = ts
}

// huntstart skips joins and unless nodes to the first real element of a
// sequence (Spin's huntstart).
func huntstart(x *element) *element {
	e := x
	for i := 0; i < 200; i++ {
		switch {
		case e.kind == eDot && e.nxt != nil:
			e = e.nxt
		case e.kind == eUnless:
			e = e.sub[0].frst
		default:
			return e
		}
	}
	return e
}

// huntele follows jumps, joins and loop exits from x to the element that
// is a state (Spin's huntele). Inside an atomic sequence (o has stAtom) it
// does not follow a jump out of the sequence: the jump becomes a step.
func (f *flow) huntele(x *element, o uint8) *element {
	e := x
	for cnt := 0; e != nil && cnt < 500; cnt++ {
		var g *element
		switch e.kind {
		case eGoto:
			g = e.jump
			if g == nil || g == e {
				return e
			}
			if e.dstep != g.dstep {
				f.errorf(e.pos, "jump into or out of a d_step sequence")
				return e
			}
		case eDot, eBreak:
			if e.nxt == nil {
				return e
			}
			g = e.nxt
		case eUnless:
			g = f.huntele(e.sub[0].frst, o)
		default:
			return e
		}
		if o&stAtom != 0 && g.status&stAtom == 0 {
			return e
		}
		e = g
	}
	return e
}

// markDSteps records, for every element inside a d_step, the d_step.
func markDSteps(s *sequence, d *element) {
	for x := s.frst; x != nil; x = x.nxt {
		x.dstep = d
		inner := d
		if x.kind == eDStep {
			inner = x
		}
		if x.body != nil {
			markDSteps(x.body, inner)
		}
		for _, h := range x.sub {
			markDSteps(h, d)
		}
		if x == s.last {
			break
		}
	}
}

func (tb *table) putSeq(s *sequence) {
	for e := s.frst; e != nil; e = e.nxt {
		if e.status&stDone == 0 {
			e.status |= stDone
			switch {
			case e.kind == eUnless:
				tb.putSeq(e.sub[0])
			case e.kind == eIf || e.kind == eDo:
				var opts []*rawTrans
				for _, h := range e.sub {
					g := huntstart(h.frst)
					if isConstCond(g, 0) && len(g.esc) == 0 {
						continue // a dead option: false -> ...
					}
					opts = append(opts, &rawTrans{elem: g, to: g.seqno, atom: e.status & stAtom, tid: e.seqno})
				}
				tb.set(e.seqno, opts...)
				tb.head[e.seqno] = true
				for _, h := range e.sub {
					tb.putSeq(h)
				}
			case e.kind == eAtomic || e.kind == eDStep || e.kind == eBlock:
				tb.putSub(e)
			default:
				tb.putEl(e)
			}
		}
		if e == s.last {
			break
		}
	}
}

func (tb *table) putSub(e *element) {
	s := e.body
	if e.kind == eAtomic {
		patchAtomic(s)
	}
	g := huntstart(s.frst)
	s.last.nxt = e.nxt
	if e.kind == eDStep {
		to := 0
		if e.nxt != nil {
			to = tb.f.huntele(e.nxt, e.status).seqno
		}
		tb.set(e.seqno, &rawTrans{elem: e, to: to, atom: stDAtom | e.status&(stAtom|stLAtom), tid: e.seqno})
		tb.putEscapes(e)
		// The steps inside are executed by the d_step's transition; their
		// own transitions are kept for that.
		tb.putSeq(s)
		return
	}
	tb.set(e.seqno, &rawTrans{elem: g, to: g.seqno, atom: e.status & stAtom, tid: e.seqno})
	tb.head[e.seqno] = true
	tb.putSeq(s)
}

// patchAtomic handles jumps inside an atomic sequence: a jump out of it
// ends the sequence, a jump from its last step back into it continues it.
func patchAtomic(s *sequence) {
	for x := s.frst; x != nil; x = x.nxt {
		if x.kind == eGoto {
			if g := x.jump; g != nil {
				if x.status&(stAtom|stLAtom) != 0 && g.status&(stAtom|stLAtom) == 0 {
					x.status &^= stAtom
					x.status |= stLAtom
				}
				if x.status&stLAtom != 0 && g.status&(stAtom|stLAtom) != 0 {
					x.status &^= stLAtom
					x.status |= stAtom
				}
			}
		} else {
			for _, h := range x.sub {
				patchAtomic(h)
			}
		}
		if x == s.extent {
			break
		}
	}
}

func (tb *table) putEl(e *element) {
	to := 0
	switch {
	case e.kind == eGoto:
		if e.jump != nil {
			to = tb.f.huntele(e.jump, e.status).seqno
		}
	case e.nxt != nil:
		to = tb.f.huntele(e.nxt, e.status).seqno
	}
	tb.set(e.seqno, &rawTrans{elem: e, to: to, atom: e.status & (stAtom | stLAtom | stDAtom), tid: e.seqno})
	tb.putEscapes(e)
}

func (tb *table) putEscapes(e *element) {
	if len(e.esc) == 0 || e.kind == eDot {
		return
	}
	t := tb.trans[e.seqno][0]
	for _, x := range e.esc {
		t.escp = append(t.escp, tb.f.huntele(x.frst, e.status).seqno)
	}
	for _, x := range e.esc {
		tb.putSeq(x)
	}
}

// retrans replaces structural states' option lists by the transitions of
// the states they lead to, and adds escapes (pan's retrans).
func (tb *table) retrans() {
	n := len(tb.trans)
	// Step 1: flatten options that lead to structural states.
	for {
		changed := false
		for i := 1; i < n; i++ {
			if !tb.head[i] {
				continue
			}
			need := false
			for _, t := range tb.trans[i] {
				if t.to > 0 && t.to < n && tb.head[t.to] {
					need = true
					break
				}
			}
			if !need {
				continue
			}
			var out []*rawTrans
			for _, t := range tb.trans[i] {
				if t.to > 0 && t.to < n && tb.head[t.to] {
					for _, u := range tb.trans[t.to] {
						c := *u
						out = append(out, &c)
					}
					changed = true
				} else {
					c := *t
					out = append(out, &c)
				}
			}
			tb.trans[i] = out
		}
		if !changed {
			break
		}
	}
	// Step 2: an option becomes a copy of the transition of its state.
	for i := 1; i < n; i++ {
		if !tb.head[i] {
			continue
		}
		var out []*rawTrans
		for _, t := range tb.trans[i] {
			if t.to <= 0 || t.to >= n || len(tb.trans[t.to]) == 0 || tb.head[t.to] {
				continue
			}
			c := *tb.trans[t.to][0]
			c.escp = append([]int(nil), c.escp...)
			out = append(out, &c)
		}
		tb.trans[i] = out
		tb.head[i] = false
	}
	// Step 3: escapes go in front.
	maxk := tb.nUnless
	for i := 1; i < n; i++ {
		orig := tb.trans[i]
		if len(orig) == 0 {
			continue
		}
		for _, t0 := range orig {
			for k := maxk - 1; k >= 0; k-- {
				if k >= len(t0.escp) {
					continue
				}
				p := t0.escp[k]
				if p <= 0 || p >= n {
					continue
				}
				for _, t1 := range tb.trans[p] {
					if hasTid(tb.trans[i], t1.tid) {
						continue
					}
					c := *t1
					c.etrans = p
					tb.trans[i] = append([]*rawTrans{&c}, tb.trans[i]...)
				}
			}
		}
	}
}

func hasTid(ts []*rawTrans, tid int) bool {
	for _, t := range ts {
		if t.tid == tid {
			return true
		}
	}
	return false
}
