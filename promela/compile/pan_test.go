package compile

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"ftmc/internal/testenv"
	"ftmc/promela"
)

// panLine reads a transition of pan -d: state FROM -(tr N)-> state TO
// [id ...] [FLAGS] file:line => text.
var panLine = regexp.MustCompile(`^\s*state\s+(\d+) -\(tr\s+\d+\)-> state\s+(\d+)\s+\[id\s+\d+ tp\s+[\d,]+( org\s+\d+)?\] \[(.)(.)(.)(.)[GL]\]`)

// TestAutomataLikePan compares the automaton of every proctype of the test
// models with the one pan prints (./pan -d): the same states, with the same
// transitions, atomic and d_step marks, escapes and end, progress and
// accept labels.
func TestAutomataLikePan(t *testing.T) {
	testenv.NeedBinary(t, "spin")
	testenv.NeedBinary(t, "gcc")
	files, _ := filepath.Glob("testdata/models/*.pml")
	if os.Getenv("FTMC_PAN_CORPUS") != "" {
		// The corpus too (a minute more), each model with its first run's
		// macros.
		more, _ := filepath.Glob("../../testdata/corpus/*.pml")
		files = append(files, more...)
	}
	for _, g := range strings.Fields(os.Getenv("FTMC_PAN_MODELS")) {
		more, _ := filepath.Glob(g)
		files = append(files, more...)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			defs := firstDefines(src)
			want := panAutomata(t, f, defs)
			m := compileNamed(t, f, src, promela.Options{Defines: defs})
			got := automata(m)
			for name, w := range want {
				g := got[name]
				if strings.Join(g, "\n") != strings.Join(w, "\n") {
					t.Errorf("%s: proctype %s:\nftmc:\n\t%s\npan -d:\n\t%s", f, name, strings.Join(g, "\n\t"), strings.Join(w, "\n\t"))
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d proctypes, pan has %d", f, len(got), len(want))
			}
		})
	}
}

// panAutomata runs Spin and pan -d on a model.
func panAutomata(t *testing.T, model string, defs map[string]string) map[string][]string {
	dir := t.TempDir()
	abs, _ := filepath.Abs(model)
	spin := []string{"spin", "-a", "-o1", "-o2", "-o3"}
	for n, v := range defs {
		spin = append(spin, "-D"+n+"="+v)
	}
	spin = append(spin, abs)
	for _, c := range [][]string{spin, {"gcc", "-O0", "-DSAFETY", "-DNOREDUCE", "-o", "pan", "pan.c"}} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	cmd := exec.Command("./pan", "-d")
	cmd.Dir = dir
	out, _ := cmd.Output()
	res := map[string][]string{}
	name := ""
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "proctype "):
			name = strings.TrimPrefix(l, "proctype ")
			res[name] = nil
		case l == "init":
			name = ":init:"
			res[name] = nil
		case strings.HasPrefix(l, "claim "), strings.HasPrefix(l, "trace"), strings.HasPrefix(l, "notrace"):
			name = "" // the LTL engine builds claims
		default:
			if m := panLine.FindStringSubmatch(l); m != nil && name != "" {
				esc := ""
				if m[3] != "" {
					esc = " esc"
				}
				res[name] = append(res[name], fmt.Sprintf("%s -> %s [%s%s%s%s]%s", m[1], m[2], m[4], m[5], m[6], m[7], esc))
			}
		}
	}
	for k := range res {
		sort.Strings(res[k])
	}
	return res
}

// firstDefines returns the macros of a model's first "ftmc: check -D ..."
// line.
func firstDefines(src []byte) map[string]string {
	for _, l := range strings.Split(string(src), "\n") {
		if _, rest, ok := strings.Cut(l, "ftmc: check"); ok {
			defs, _ := defines(strings.Fields(rest))
			return defs
		}
	}
	return map[string]string{}
}

// defines returns the macros that the -D options among args define
// (-D NAME, -DNAME=VALUE, ...), and the options' text.
func defines(args []string) (defs map[string]string, ds []string) {
	defs = map[string]string{}
	for i := 0; i < len(args); i++ {
		var d string
		switch {
		case args[i] == "-D" && i+1 < len(args):
			d = args[i+1]
			i++
		case strings.HasPrefix(args[i], "-D"):
			d = args[i][2:]
		default:
			continue
		}
		n, v, ok := strings.Cut(d, "=")
		if !ok {
			v = "1"
		}
		defs[n] = v
		ds = append(ds, d)
	}
	return defs, ds
}

// automata lists the transitions of every proctype reachable from its
// start, in pan -d's terms.
func automata(m *Model) map[string][]string {
	res := map[string][]string{}
	for _, pt := range m.p.procs {
		var lines []string
		seen := map[int]bool{}
		var visit func(s int)
		visit = func(s int) {
			if seen[s] || s <= 0 || s >= len(pt.trans) {
				return
			}
			seen[s] = true
			for k := range pt.trans[s] {
				t := &pt.trans[s][k]
				f := [4]byte{'-', '-', '-', '-'}
				switch {
				case t.atomic:
					f[0] = 'A'
				case t.kind == tDStep:
					f[0] = 'D'
				}
				if pt.accept[s] {
					f[1] = 'a'
				}
				if pt.valid[s] {
					f[2] = 'e'
				}
				if pt.prog[s] {
					f[3] = 'p'
				}
				esc := ""
				if t.etrans != 0 {
					esc = " esc"
				}
				lines = append(lines, fmt.Sprintf("%d -> %d [%s]%s", s, t.to, f[:], esc))
			}
			for k := range pt.trans[s] {
				visit(pt.trans[s][k].to)
			}
		}
		visit(pt.start)
		sort.Strings(lines)
		res[pt.name] = lines
	}
	return res
}
