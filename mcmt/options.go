package mcmt

import (
	"fmt"
	"strings"

	"ftmc/internal/editdist"

	"ftmc/mcmt/system"
)

// MCMT's search options, as its :keyword syntax and the user syntax's
// (:mcmt ... :) give them. ftmc reads them so that a misspelt one is an
// error, but its own search has flags of its own and uses none of them
// (Note says so).
var mcmtOptions = []struct {
	name  string
	value string // "number", "array" (a declared array), "" (none, or an optional number)
}{
	{"key_search", "array"},
	{"max_transitions_number", "number"},
	{"inv_search_start", ""},
	{"inv_search_max_index_var", "number"},
	{"inv_search_max_num_invariants", "number"},
	{"inv_search_max_num_cand_invariants", "number"},
	{"dynamic_predicate_abstraction", ""},
	{"determine_bounds", ""},
	{"no_backward_simplification", ""},
	{"display_accelerated_transitions", ""},
	{"variable_redundancy_test", ""},
}

// mcmt1Keywords are the keywords of MCMT's :keyword syntax other than its
// options (:comment is skipped by the lexer).
var mcmt1Keywords = []string{
	":index", ":smt", ":map_back", ":local", ":global", ":eevar",
	":initial", ":unsafe", ":u_cnj", ":system_axiom",
	":suggested_negated_invariants", ":end_of_suggested_negated_invariants",
	":transition", ":var", ":cnj", ":guard", ":uguard", ":numcases", ":case", ":val",
}

func optionNames(prefix string) []string {
	var names []string
	for _, o := range mcmtOptions {
		names = append(names, prefix+o.name)
	}
	return names
}

// pendingArray is an option's value that must name an array: the token,
// the option, and the option's index in System.Options.
type pendingArray struct {
	tok    token
	option string
	index  int
}

// optionValue is what option name takes ("number", "array" or ""), and
// whether MCMT has such an option.
func optionValue(name string) (string, bool) {
	for _, o := range mcmtOptions {
		if o.name == name {
			return o.value, true
		}
	}
	return "", false
}

// mcmtOption reads the value of option name (its token is at), whose
// keyword has just been read, and records it. Arrays named by key_search
// are checked when the whole model has been read (pendingArrays).
func (p *parser) mcmtOption(at token, name string) {
	kind, ok := optionValue(name)
	if !ok {
		p.failAt(at, "unknown MCMT option :%s (%s)", name, hint(":"+name, optionNames(":"), "MCMT's options are"))
	}
	o := system.Option{Name: name, Pos: at.pos}
	t := p.peek()
	switch kind {
	case "number":
		neg := p.is("-") && p.peekAt(1).kind == tNum
		if neg {
			p.next()
			t = p.peek()
		}
		if t.kind != tNum {
			p.failAt(t, "option :%s needs a number, found %s", name, t)
		}
		p.next()
		o.Value = t.text
		if neg {
			o.Value = "-" + t.text
		}
	case "array":
		if t.kind != tIdent {
			p.failAt(t, "option :%s needs the name of an array, found %s", name, t)
		}
		p.next()
		o.Value = t.text
		p.pendingArrays = append(p.pendingArrays, pendingArray{tok: t, option: name, index: len(p.sys.Options)})
	default:
		if t.kind == tNum {
			p.next()
			o.Value = t.text
		}
	}
	p.sys.Options = append(p.sys.Options, o)
}

// checkArrays makes sure that the names options gave (key_search) are
// declared arrays; aliases maps the :keyword syntax's names to the
// declared ones (nil for the other syntaxes), and the option's value
// becomes the array's declared name.
func (p *parser) checkArrays(aliases map[string]string) {
	for _, pa := range p.pendingArrays {
		t := pa.tok
		name := t.text
		if a, ok := aliases[name]; ok {
			name = a
		}
		if p.sys.Var(name) == nil {
			if len(p.sys.Vars) == 0 {
				p.failAt(t, "%s %s names no declared array (the model declares none)", pa.option, t.text)
			}
			var arrays []string
			for _, v := range p.sys.Vars {
				arrays = append(arrays, v.Name)
			}
			p.failAt(t, "%s %s names no declared array (%s)", pa.option, t.text, hint(name, arrays, "the arrays are"))
		}
		p.sys.Options[pa.index].Value = name
	}
	p.pendingArrays = nil
}

// hint suggests the word of words closest to w when one is close enough,
// and lists them all otherwise ("MCMT's options are :a, :b").
func hint(w string, words []string, listed string) string {
	best, bestD := "", -1
	for _, c := range words {
		if d := editdist.Distance(strings.ToLower(w), strings.ToLower(c)); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" && bestD <= 2 && bestD <= len(best)/2 {
		return "did you mean " + best + "?"
	}
	return listed + " " + strings.Join(words, ", ")
}

// Note says which options of the model ftmc reads but does not use (MCMT's
// search options, Cubicle's number_procs), in one line, or "" when there
// are none: ftmc's search is tuned by its own flags.
func Note(sys *system.System) string {
	var opts, unknown []string
	procs := ""
	for _, o := range sys.Options {
		if o.Unknown {
			unknown = append(unknown, fmt.Sprintf("%s: :%s is not an MCMT option ftmc knows (%s); ignored", o.Pos, o.Name, o.Hint))
			continue
		}
		if o.Name == "number_procs" {
			procs = o.Value
			continue
		}
		s := o.Name
		if o.Value != "" {
			s += " " + o.Value
		}
		opts = append(opts, s)
	}
	parts := unknown
	switch {
	case len(opts) == 1:
		parts = append(parts, fmt.Sprintf("MCMT option %s has no effect (ftmc's search is set by its flags)", opts[0]))
	case len(opts) > 1:
		parts = append(parts, fmt.Sprintf("MCMT options %s have no effect (ftmc's search is set by its flags)", strings.Join(opts, ", ")))
	}
	if procs != "" {
		parts = append(parts, fmt.Sprintf("number_procs %s has no effect: the proof covers every number of processes (--bounded %s checks the instance with %s)", procs, procs, procs))
	}
	return strings.Join(parts, "; ")
}
