package promela

// constKind says whether an expression folded to a constant.
type constKind uint8

const (
	notConst constKind = iota // the expression reads the state
	isConst                   // the value is known
	pending                   // it depends on a parameter without a value
)

// ConstValue returns the value of a constant expression: numbers, true,
// false, skip, mtype constants, parameters with values (after
// Instantiate), and operators and conditionals over them. It reports false
// for anything that depends on the state, on an unbound parameter, or
// that divides by zero.
func ConstValue(x Expr) (int64, bool) {
	v, k := fold(x, nil)
	return v, k == isConst
}

// fold evaluates a constant expression. Division by zero is reported to
// errs (if not nil) and makes the expression not constant.
func fold(x Expr, errs *ErrorList) (int64, constKind) {
	switch x := x.(type) {
	case *IntLit:
		return x.Value, isConst
	case *Ident:
		if x.Sym == nil {
			return 0, notConst
		}
		switch x.Sym.Kind {
		case SymMtype:
			return x.Sym.Value, isConst
		case SymParam:
			if x.Sym.Bound {
				return x.Sym.Value, isConst
			}
			return 0, pending
		}
		return 0, notConst
	case *UnaryExpr:
		v, k := fold(x.X, errs)
		if k != isConst {
			return 0, k
		}
		switch x.Op {
		case SUB:
			return -v, isConst
		case TILDE:
			return ^v, isConst
		case NOT:
			return b2i(v == 0), isConst
		}
		return 0, notConst
	case *BinaryExpr:
		a, ka := fold(x.X, errs)
		b, kb := fold(x.Y, errs)
		switch {
		case ka == notConst || kb == notConst:
			return 0, notConst
		case ka == pending || kb == pending:
			return 0, pending
		}
		switch x.Op {
		case QUO, REM:
			if b == 0 {
				if errs != nil {
					errs.Addf(x.OpPos, "division by zero in a constant expression")
				}
				return 0, notConst
			}
		case ADD, SUB, MUL, AND, OR, XOR, SHL, SHR, LAND, LOR, EQL, NEQ, LSS, LEQ, GTR, GEQ:
		default:
			return 0, notConst
		}
		return evalBinary(x.Op, a, b), isConst
	case *CondExpr:
		c, kc := fold(x.Cond, errs)
		a, ka := fold(x.Then, errs)
		b, kb := fold(x.Else, errs)
		switch {
		case kc == notConst || ka == notConst || kb == notConst:
			return 0, notConst
		case kc == pending || ka == pending || kb == pending:
			return 0, pending
		}
		if c != 0 {
			return a, isConst
		}
		return b, isConst
	}
	return 0, notConst
}
