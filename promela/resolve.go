package promela

// resolve groups the declarations of prog and resolves its names.
func resolve(prog *Program, errs *ErrorList) {
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *DeclGroup:
			prog.Globals = append(prog.Globals, d.Vars...)
		case *ProcDecl:
			switch d.Kind {
			case KindProctype:
				prog.Procs = append(prog.Procs, d)
			case KindInit:
				prog.Init = d
			case KindNever:
				prog.Nevers = append(prog.Nevers, d)
			}
		case *LTLDecl:
			d.Index = len(prog.LTL)
			prog.LTL = append(prog.LTL, d)
		case *TypedefDecl:
			prog.Typedefs = append(prog.Typedefs, d)
		case *InlineDecl:
			prog.Inlines = append(prog.Inlines, d)
		case *AssumeDecl:
			prog.Assumes = append(prog.Assumes, d)
		case *AtomicPropDecl:
			prog.Props = append(prog.Props, d)
		}
	}
}

// Instantiate gives values to the symbolic parameters of a parametric
// model.
func Instantiate(prog *Program, params map[string]int64) ([]Warning, error) {
	return nil, nil
}
