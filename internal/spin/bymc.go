package spin

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ByMCInstance writes a model in ByMC's Parametric Promela as ByMC's
// concrete mode hands it to Spin, so that Spin can check one instance:
// the parameters become macros; `symbolic` declarations and `assume(...)`
// statements go; each named proposition `atomic p = ...;` becomes a macro
// in which all(...), some(...) and card(...) are unfolded over the
// processes of the model's one active proctype (pids 0 .. count-1, where
// the count is the active expression, a sum of parameters and integers),
// with every `Proc:x` and `Proc@l` of the argument naming process i; and
// the ltl block spec is replaced by SPEC_fair, `(fairness) -> (spec)`, when
// the model has a fairness block. The other ltl blocks go. The
// preprocessor lines stay for Spin's own cpp.
//
// It is a text transformation that knows the layout of ByMC's benchmark
// models (one declaration or statement of this kind per line, or an atomic
// definition or ltl block over several lines), not a Promela parser.
func ByMCInstance(src string, params map[string]int64, spec string) (string, error) {
	var keys []string
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("#define %s %d", k, params[k]))
	}
	am := activeRe.FindStringSubmatch(src)
	if am == nil {
		return "", fmt.Errorf("no active proctype")
	}
	count, err := evalSum(am[1], params)
	if err != nil {
		return "", err
	}
	ltls := map[string]string{}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case dropRe.MatchString(line):
			continue
		case atomRe.MatchString(line):
			m := atomRe.FindStringSubmatch(line)
			def := commentRe.ReplaceAllString(m[2], "")
			for !strings.HasSuffix(strings.TrimSpace(def), ";") && i+1 < len(lines) {
				i++
				def += " " + strings.TrimSpace(commentRe.ReplaceAllString(lines[i], ""))
			}
			def = strings.TrimSuffix(strings.TrimSpace(def), ";")
			def = strings.NewReplacer(" and ", " && ", " or ", " || ").Replace(def)
			u, err := unfold(def, am[2], count)
			if err != nil {
				return "", fmt.Errorf("atomic %s: %v", m[1], err)
			}
			out = append(out, fmt.Sprintf("#define %s (%s)", m[1], u))
			continue
		case ltlRe.MatchString(line):
			name := ltlRe.FindStringSubmatch(line)[1]
			body := line[strings.Index(line, "{")+1:]
			for depth := braceDepth(line); depth > 0 && i+1 < len(lines); depth += braceDepth(lines[i]) {
				i++
				body += " " + strings.TrimSpace(lines[i])
			}
			end := strings.LastIndex(body, "}")
			if end < 0 {
				return "", fmt.Errorf("ltl %s: no closing brace", name)
			}
			ltls[name] = strings.TrimSpace(body[:end])
			continue
		}
		out = append(out, line)
	}
	f, ok := ltls[spec]
	if !ok {
		return "", fmt.Errorf("no ltl block %s", spec)
	}
	if fair, ok := ltls["fairness"]; ok {
		f = fmt.Sprintf("(%s) -> (%s)", fair, f)
	}
	out = append(out, fmt.Sprintf("ltl %s_fair { %s }", spec, f))
	return strings.Join(out, "\n") + "\n", nil
}

var (
	activeRe  = regexp.MustCompile(`active\s*\[(.*?)\]\s*proctype\s+(\w+)`)
	dropRe    = regexp.MustCompile(`^\s*(symbolic\b|assume\s*\()`)
	atomRe    = regexp.MustCompile(`^\s*atomic\s+(\w+)\s*=\s*(.*)$`)
	ltlRe     = regexp.MustCompile(`^\s*ltl\s+(\w+)\s*\{`)
	quantRe   = regexp.MustCompile(`\b(all|some|card)\s*\(`)
	commentRe = regexp.MustCompile(`/\*.*?\*/`)
)

func braceDepth(line string) int {
	return strings.Count(line, "{") - strings.Count(line, "}")
}

// unfold replaces each all/some/card(ARG) of e by the conjunction,
// disjunction or sum of ARG over the processes 0 .. count-1 of proctype
// proc, in which proc:x and proc@l become proc[i]:x and proc[i]@l.
func unfold(e, proc string, count int64) (string, error) {
	procRe := regexp.MustCompile(`\b` + proc + `\s*([:@])\s*(\w+)`)
	var b strings.Builder
	for {
		m := quantRe.FindStringSubmatchIndex(e)
		if m == nil {
			b.WriteString(e)
			return b.String(), nil
		}
		kind := e[m[2]:m[3]]
		open := m[1] - 1
		end := matchParen(e, open)
		if end < 0 {
			return "", fmt.Errorf("%s( without its closing parenthesis", kind)
		}
		arg := e[open+1 : end]
		var terms []string
		for i := int64(0); i < count; i++ {
			terms = append(terms, "("+procRe.ReplaceAllString(arg, fmt.Sprintf("%s[%d]$1$2", proc, i))+")")
		}
		op := map[string]string{"all": " && ", "some": " || ", "card": " + "}[kind]
		if len(terms) == 0 {
			terms = []string{map[string]string{"all": "1", "some": "0", "card": "0"}[kind]}
		}
		b.WriteString(e[:m[0]])
		b.WriteString("(" + strings.Join(terms, op) + ")")
		e = e[end+1:]
	}
}

// matchParen returns the index of the parenthesis that closes the one at
// open, or -1.
func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// evalSum evaluates the count of an active proctype: A - B + C with
// parameters and integers.
func evalSum(e string, vals map[string]int64) (int64, error) {
	e = strings.ReplaceAll(e, " ", "")
	var total int64
	sign := int64(1)
	for _, tok := range regexp.MustCompile(`[+-]|[^+-]+`).FindAllString(e, -1) {
		switch tok {
		case "+":
			sign = 1
		case "-":
			sign = -1
		default:
			v, ok := vals[tok]
			if !ok {
				n, err := strconv.ParseInt(tok, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("cannot evaluate the process count %q", e)
				}
				v = n
			}
			total += sign * v
		}
	}
	return total, nil
}
