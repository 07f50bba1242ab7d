package promela

// Visitor's Visit is called for each node Walk meets. If it returns a
// non-nil visitor w, Walk visits the node's children with w and then calls
// w.Visit(nil).
type Visitor interface {
	Visit(n Node) (w Visitor)
}

// Walk traverses the tree rooted at n in depth-first order, children in
// source order. It visits the expanded bodies of inline calls, but not the
// (unparsed) bodies of inline declarations.
func Walk(v Visitor, n Node) {
	if v = v.Visit(n); v == nil {
		return
	}
	walkChildren(v, n)
	v.Visit(nil)
}

type inspector func(Node) bool

func (f inspector) Visit(n Node) Visitor {
	if f(n) {
		return f
	}
	return nil
}

// Inspect traverses the tree rooted at n, calling f for each node; if f
// returns false the node's children are skipped. After the children, f is
// called with nil.
func Inspect(n Node, f func(Node) bool) { Walk(inspector(f), n) }

// walkList walks the nodes of a list in order.
func walkList[N Node](v Visitor, ns []N) {
	for _, n := range ns {
		Walk(v, n)
	}
}

func walkChildren(v Visitor, n Node) {
	switch n := n.(type) {
	case *Ident, *IntLit:
	case *UnaryExpr:
		Walk(v, n.X)
	case *BinaryExpr:
		Walk(v, n.X)
		Walk(v, n.Y)
	case *CondExpr:
		Walk(v, n.Cond)
		Walk(v, n.Then)
		Walk(v, n.Else)
	case *IndexExpr:
		Walk(v, n.X)
		Walk(v, n.Index)
	case *SelectorExpr:
		Walk(v, n.X)
		Walk(v, n.Sel)
	case *CallExpr:
		walkList(v, n.Args)
	case *RunExpr:
		Walk(v, n.Proc)
		walkList(v, n.Args)
	case *PollExpr:
		Walk(v, n.Chan)
		walkList(v, n.Args)
	case *RemoteRef:
		Walk(v, n.Proc)
		if n.Index != nil {
			Walk(v, n.Index)
		}
		if n.Label != nil {
			Walk(v, n.Label)
		}
		if n.Var != nil {
			Walk(v, n.Var)
		}

	case *ExprStmt:
		Walk(v, n.X)
	case *AssignStmt:
		Walk(v, n.LHS)
		Walk(v, n.RHS)
	case *IncDecStmt:
		Walk(v, n.X)
	case *SendStmt:
		Walk(v, n.Chan)
		walkList(v, n.Args)
	case *RecvStmt:
		Walk(v, n.Chan)
		walkList(v, n.Args)
	case *Option:
		walkList(v, n.Stmts)
	case *IfStmt:
		walkList(v, n.Options)
	case *DoStmt:
		walkList(v, n.Options)
	case *ElseStmt, *BreakStmt:
	case *GotoStmt:
		Walk(v, n.Label)
	case *LabeledStmt:
		Walk(v, n.Label)
		Walk(v, n.Stmt)
	case *Block:
		walkList(v, n.Stmts)
	case *BlockStmt:
		Walk(v, n.Body)
	case *AtomicStmt:
		Walk(v, n.Body)
	case *DStepStmt:
		Walk(v, n.Body)
	case *UnlessStmt:
		Walk(v, n.Stmt)
		Walk(v, n.Escape)
	case *AssertStmt:
		Walk(v, n.X)
	case *PrintfStmt:
		walkList(v, n.Args)
	case *PrintmStmt:
		Walk(v, n.X)
	case *SelectStmt:
		Walk(v, n.Var)
		Walk(v, n.Lo)
		Walk(v, n.Hi)
	case *ForStmt:
		Walk(v, n.Var)
		if n.In != nil {
			Walk(v, n.In)
		} else {
			Walk(v, n.Lo)
			Walk(v, n.Hi)
		}
		Walk(v, n.Body)
	case *InlineStmt:
		Walk(v, n.Name)
		walkList(v, n.Args)
		Walk(v, n.Body)
	case *DeclStmt:
		walkList(v, n.Vars)
	case *XStmt:
		walkList(v, n.Chans)
	case *AssumeStmt:
		Walk(v, n.X)
	case *HavocStmt:
		Walk(v, n.X)

	case *VarDecl:
		Walk(v, n.Type)
		Walk(v, n.Name)
		if n.Bits != nil {
			Walk(v, n.Bits)
		}
		if n.Len != nil {
			Walk(v, n.Len)
		}
		if n.Init != nil {
			Walk(v, n.Init)
		}
		walkList(v, n.InitList)
		if n.Chan != nil {
			Walk(v, n.Chan)
		}
	case *TypeName:
		if n.Sub != nil {
			Walk(v, n.Sub)
		}
		if n.User != nil {
			Walk(v, n.User)
		}
	case *ChanInit:
		Walk(v, n.Cap)
		walkList(v, n.Fields)
	case *DeclGroup:
		walkList(v, n.Vars)
	case *MtypeDecl:
		if n.Sub != nil {
			Walk(v, n.Sub)
		}
		walkList(v, n.Names)
	case *TypedefDecl:
		Walk(v, n.Name)
		walkList(v, n.Fields)
	case *ProcDecl:
		if n.Count != nil {
			Walk(v, n.Count)
		}
		if n.Name != nil {
			Walk(v, n.Name)
		}
		walkList(v, n.Params)
		if n.Provided != nil {
			Walk(v, n.Provided)
		}
		Walk(v, n.Body)
	case *LTLDecl:
		if n.Name != nil {
			Walk(v, n.Name)
		}
		Walk(v, n.Formula)
	case *InlineDecl:
		Walk(v, n.Name)
		walkList(v, n.Params)
	case *SymbolicDecl:
		Walk(v, n.Type)
		walkList(v, n.Names)
	case *AssumeDecl:
		Walk(v, n.X)
	case *AtomicPropDecl:
		Walk(v, n.Name)
		Walk(v, n.X)
	case *Program:
		walkList(v, n.Decls)
	}
}
