package compile

import (
	"testing"

	"ftmc/promela"
)

// specCases are models whose proctypes have parameters to specialise on
// (or not), and expressions to tabulate or fuse.
var specCases = []struct {
	name, src string
	spec      map[string]string // proctype: the parameter of its variants ("": none)
	fault     bool              // the search meets a run-time error
}{
	{"parameter as an array index, run twice", `
		byte a[3], b[3];
		proctype P(byte i) {
			do
			:: atomic { a[i] < 2 && b[i] == 0 -> a[i]++; b[(i + 1) % 3] = a[i] }
			:: atomic { a[(i + 2) % 3] > 0 && i != 1 -> a[(i + 2) % 3]-- }
			:: atomic { i == 0 && a[2] == 0 -> a[2] = 1 }
			:: a[i] == 2 -> break
			:: timeout -> break
			od
		}
		init { atomic { run P(0); run P(2) } }`,
		map[string]string{"P": "i"}, false},
	{"parameter assigned", `
		byte a[4];
		proctype P(byte i) {
			do
			:: i < 3 -> a[i]++; i++
			:: i == 3 -> break
			od
		}
		init { run P(1); run P(2) }`,
		map[string]string{"P": ""}, false},
	{"parameter received into and looped over", `
		chan c = [1] of { byte };
		byte a[5];
		proctype R(byte i; byte j) {
			c?i; a[i] = j + 1;
			for (j : 1 .. 2) { a[j] = a[j] + i }
		}
		init { c!3; run R(0, 1 + 1) }`,
		map[string]string{"R": ""}, false},
	{"second parameter specialised, expression arguments", `
		byte a[8];
		byte x = 1;
		proctype Q(short s; bit f; byte k) {
			do
			:: atomic { a[k * 2 + f] < 2 -> a[k * 2 + f]++; x = (x * 3 + k) % 7 }
			:: atomic { (k == 3 || a[k] > 1) && f -> a[(k + 1) % 8] = s % 4 }
			:: f == 0 && a[k] > 3 -> break
			:: a[k] == 2 -> break
			od
		}
		init { byte y = 2; atomic { run Q(1000, 1, y + 1); run Q(-5, 0, y * 0); x++ } }`,
		map[string]string{"Q": "f"}, false}, // s is not a byte
	{"one-variable expressions with faults", `
		byte a[4], n;
		active proctype P() {
			do
			:: n < 4 -> n++
			:: atomic { n > 0 -> a[(n * 5 + 1) % 4] = 10 / (n - 2) }
			:: a[(n + 3) / 2] == 5 -> break
			od
		}`,
		nil, true},
	{"parameter that decides no condition but makes choices safe", `
		byte m[3], h[3];
		proctype P(byte n) {
			do
			:: atomic { m[n] == 0 -> m[n] = 1; if :: h[n] == 1 -> printf("x\n") :: else fi; h[n] = 1 - h[n]; m[n] = 0 }
			:: atomic { h[n] == 1 -> m[(n + 1) % 3]++; if :: m[n] > 0 -> skip :: else fi; m[(n + 1) % 3]-- }
			od
		}
		init { atomic { run P(0); run P(1) } }`,
		map[string]string{"P": "n"}, false},
	{"remote reference to a specialised parameter", `
		byte v[3];
		proctype P(byte me) {
			v[me] = me + 1;
			if
			:: v[(me + 1) % 3] == 0 -> skip
			:: me == 2 -> v[0] = 1
			:: timeout
			fi
		}
		init {
			atomic { run P(1); run P(2) };
			if
			:: P[1]:me + P[2]:me == 3 -> v[0] = 9
			:: timeout
			fi
		}`,
		map[string]string{"P": "me"}, false},
}

// compilePlain compiles src without variants, tabulated expressions and
// fused tests.
func compilePlain(t *testing.T, src string) *Model {
	t.Helper()
	prog, err := promela.Parse("test.pml", []byte(src), promela.Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	m, err := compileProgram(prog, true)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return m
}

// TestSpecialisedLikePlain compares the successors (and failures) of every
// reachable state with those of the plain compile.
func TestSpecialisedLikePlain(t *testing.T) {
	for _, sc := range specCases {
		t.Run(sc.name, func(t *testing.T) {
			md := compileSrc(t, sc.src, nil)
			plain := compilePlain(t, sc.src)
			for _, pt := range md.p.procs {
				got := ""
				if pt.spec != nil {
					got = pt.spec.name
				}
				if want, ok := sc.spec[pt.name]; ok && got != want {
					t.Fatalf("%s: variants for parameter %q, want %q", pt.name, got, want)
				}
			}
			s := explore(md, 0)
			p := explore(plain, 0)
			for _, pt := range md.p.procs {
				if sc.spec[pt.name] == "" {
					continue
				}
				specialised := false
				for v := range pt.variants.by {
					if vr := pt.variants.by[v].Load(); vr != nil && vr != &pt.plain {
						specialised = true
					}
				}
				if !specialised {
					t.Errorf("%s: no process ran a variant", pt.name)
				}
			}
			if len(s.seen) != len(p.seen) || s.kind != p.kind || s.msg != p.msg {
				t.Fatalf("%d states (%s %s), plain %d (%s %s)", len(s.seen), s.kind, s.msg, len(p.seen), p.kind, p.msg)
			}
			if (s.kind != "") != sc.fault {
				t.Fatalf("violation %q %q, want one: %v", s.kind, s.msg, sc.fault)
			}
			if len(s.seen) < 4 {
				t.Fatalf("only %d states", len(s.seen))
			}
			sameSuccessors(t, s.seen, md, plain, "specialised", "plain")
		})
	}
}

// TestVariantsConcurrent has forks of a model meet its variants' values
// at once (run with -race): each variant is compiled once, and every fork
// finds the states of the plain compile.
func TestVariantsConcurrent(t *testing.T) {
	src := specCases[0].src
	want := explore(compilePlain(t, src), 0).states
	m := compileSrc(t, src, nil)
	forksFind(t, m, 4, want)
	pt := m.p.procs[0]
	if pt.name != "P" || pt.variants == nil || pt.variants.by[0].Load() == nil || pt.variants.by[2].Load() == nil || pt.variants.by[1].Load() != nil {
		t.Errorf("variants of P: want those for 0 and 2 only")
	}
}
