package promela

import (
	"strconv"
	"strings"
)

// ExprString formats an expression as Promela source, with parentheses
// only where precedence needs them (so that messages and traces show what
// was written, normalised).
func ExprString(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x, 0)
	return b.String()
}

func exprString(x Expr) string { return ExprString(x) }

// opPrec returns the precedence of a binary operator as the parser uses
// it (higher binds tighter).
func opPrec(op Token) int {
	switch op {
	case IMPLIES, EQUIV:
		return 1
	case LOR:
		return 2
	case LAND:
		return 3
	case UNTIL, WEAKUNTIL, RELEASE:
		return 4
	case OR:
		return 5
	case XOR:
		return 6
	case AND:
		return 7
	case EQL, NEQ:
		return 8
	case LSS, LEQ, GTR, GEQ:
		return 9
	case SHL, SHR:
		return 10
	case ADD, SUB:
		return 11
	case MUL, QUO, REM:
		return 12
	}
	return 0
}

const unaryPrec = 13

func writeExpr(b *strings.Builder, x Expr, prec int) {
	switch x := x.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Ident:
		b.WriteString(x.Name)
	case *IntLit:
		if x.Lit != "" {
			b.WriteString(x.Lit)
		} else {
			b.WriteString(strconv.FormatInt(x.Value, 10))
		}
	case *UnaryExpr:
		if prec > unaryPrec {
			b.WriteByte('(')
		}
		b.WriteString(x.Op.String())
		var sub strings.Builder
		writeExpr(&sub, x.X, unaryPrec)
		operand := sub.String()
		// Keep the tokens apart: - -x is not --x, ! !x is not !!x.
		if x.Op == NEXT || x.Op == SUB && strings.HasPrefix(operand, "-") || x.Op == NOT && strings.HasPrefix(operand, "!") {
			b.WriteByte(' ')
		}
		b.WriteString(operand)
		if prec > unaryPrec {
			b.WriteByte(')')
		}
	case *BinaryExpr:
		q := opPrec(x.Op)
		if q < prec {
			b.WriteByte('(')
		}
		writeExpr(b, x.X, q)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeExpr(b, x.Y, q+1)
		if q < prec {
			b.WriteByte(')')
		}
	case *CondExpr:
		b.WriteByte('(')
		writeExpr(b, x.Cond, 0)
		b.WriteString(" -> ")
		writeExpr(b, x.Then, 0)
		b.WriteString(" : ")
		writeExpr(b, x.Else, 0)
		b.WriteByte(')')
	case *IndexExpr:
		writeExpr(b, x.X, unaryPrec+1)
		b.WriteByte('[')
		writeExpr(b, x.Index, 0)
		b.WriteByte(']')
	case *SelectorExpr:
		writeExpr(b, x.X, unaryPrec+1)
		b.WriteByte('.')
		b.WriteString(x.Sel.Name)
	case *CallExpr:
		b.WriteString(x.Fun.String())
		b.WriteByte('(')
		writeList(b, x.Args)
		b.WriteByte(')')
	case *RunExpr:
		b.WriteString("run ")
		b.WriteString(x.Proc.Name)
		b.WriteByte('(')
		writeList(b, x.Args)
		b.WriteByte(')')
	case *PollExpr:
		writeChanOp(b, x.Chan, '?', x.Random)
		b.WriteByte('[')
		writeList(b, x.Args)
		b.WriteByte(']')
	case *RemoteRef:
		b.WriteString(x.Proc.Name)
		if x.Index != nil {
			b.WriteByte('[')
			writeExpr(b, x.Index, 0)
			b.WriteByte(']')
		}
		if x.Label != nil {
			b.WriteByte('@')
			b.WriteString(x.Label.Name)
		} else {
			b.WriteByte(':')
			writeExpr(b, x.Var, 0)
		}
	default:
		b.WriteString("<?>")
	}
}

// writeChanOp writes a channel and its operator op, doubled when twice
// (!! a sorted send, ?? a random receive or poll).
func writeChanOp(b *strings.Builder, ch Expr, op byte, twice bool) {
	writeExpr(b, ch, unaryPrec+1)
	b.WriteByte(op)
	if twice {
		b.WriteByte(op)
	}
}

func writeList(b *strings.Builder, xs []Expr) {
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x, 0)
	}
}

// StmtString formats a statement the way Spin shows a step in a trail:
// one line, compound statements by their keyword only (if, do, atomic,
// d_step, ...), since their parts are steps of their own.
func StmtString(s Stmt) string {
	var b strings.Builder
	switch s := s.(type) {
	case *ExprStmt:
		writeExpr(&b, s.X, 0)
	case *AssignStmt:
		writeExpr(&b, s.LHS, 0)
		b.WriteString(" = ")
		writeExpr(&b, s.RHS, 0)
	case *IncDecStmt:
		writeExpr(&b, s.X, 0)
		b.WriteString(s.Tok.String())
	case *SendStmt:
		writeChanOp(&b, s.Chan, '!', s.Sorted)
		writeList(&b, s.Args)
	case *RecvStmt:
		writeChanOp(&b, s.Chan, '?', s.Random)
		if s.Copy {
			b.WriteByte('<')
		}
		writeList(&b, s.Args)
		if s.Copy {
			b.WriteByte('>')
		}
	case *IfStmt:
		b.WriteString("if")
	case *DoStmt:
		b.WriteString("do")
	case *ElseStmt:
		b.WriteString("else")
	case *BreakStmt:
		b.WriteString("break")
	case *GotoStmt:
		b.WriteString("goto ")
		b.WriteString(s.Label.Name)
	case *LabeledStmt:
		b.WriteString(s.Label.Name)
		b.WriteString(": ")
		b.WriteString(StmtString(s.Stmt))
	case *BlockStmt:
		b.WriteString("{ ... }")
	case *AtomicStmt:
		b.WriteString("atomic")
	case *DStepStmt:
		b.WriteString("d_step")
	case *UnlessStmt:
		b.WriteString(StmtString(s.Stmt))
		b.WriteString(" unless ")
		b.WriteString(StmtString(s.Escape))
	case *AssertStmt:
		writeCall(&b, "assert", s.X)
	case *PrintfStmt:
		b.WriteString("printf(\"")
		b.WriteString(s.Format)
		b.WriteByte('"')
		for _, a := range s.Args {
			b.WriteString(", ")
			writeExpr(&b, a, 0)
		}
		b.WriteByte(')')
	case *PrintmStmt:
		writeCall(&b, "printm", s.X)
	case *SelectStmt:
		b.WriteString("select(")
		writeExpr(&b, s.Var, 0)
		writeRange(&b, s.Lo, s.Hi)
		b.WriteByte(')')
	case *ForStmt:
		b.WriteString("for (")
		writeExpr(&b, s.Var, 0)
		if s.In != nil {
			b.WriteString(" in ")
			writeExpr(&b, s.In, 0)
		} else {
			writeRange(&b, s.Lo, s.Hi)
		}
		b.WriteByte(')')
	case *InlineStmt:
		b.WriteString(s.Name.Name)
		b.WriteByte('(')
		writeList(&b, s.Args)
		b.WriteByte(')')
	case *DeclStmt:
		for i, v := range s.Vars {
			if i > 0 {
				b.WriteString(", ")
			} else {
				b.WriteString(typeNameString(v.Type))
				b.WriteByte(' ')
			}
			b.WriteString(v.Name.Name)
			if v.Init != nil {
				b.WriteString(" = ")
				writeExpr(&b, v.Init, 0)
			}
		}
	case *XStmt:
		b.WriteString(s.Tok.String())
		b.WriteByte(' ')
		writeList(&b, s.Chans)
	case *AssumeStmt:
		writeCall(&b, "assume", s.X)
	case *HavocStmt:
		writeCall(&b, "havoc", s.X)
	default:
		b.WriteString("<?>")
	}
	return b.String()
}

func typeNameString(t *TypeName) string {
	switch {
	case t.Kind == IDENT && t.User != nil:
		return t.User.Name
	case t.Kind == MTYPE && t.Sub != nil:
		return "mtype:" + t.Sub.Name
	}
	return t.Kind.String()
}

// writeCall writes a statement written as a call with one argument, as
// assert(x).
func writeCall(b *strings.Builder, name string, x Expr) {
	b.WriteString(name)
	b.WriteByte('(')
	writeExpr(b, x, 0)
	b.WriteByte(')')
}

// writeRange writes the range of select and for after their variable:
// " : lo .. hi".
func writeRange(b *strings.Builder, lo, hi Expr) {
	b.WriteString(" : ")
	writeExpr(b, lo, 0)
	b.WriteString(" .. ")
	writeExpr(b, hi, 0)
}
