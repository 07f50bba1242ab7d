package mcmt

import (
	"strings"
	"testing"

	"ftmc/mcmt/system"
)

// FuzzParse checks that no input makes a parser panic, and that every
// model a parser accepts can be instantiated and explored a little.
// Run with: go test ./mcmt -fuzz FuzzParse (corpus in testdata/fuzz).
func FuzzParse(f *testing.F) {
	f.Add(uint8(0), "local bool s [nat]\nglobal int g [nat]\ninitial (universal x:nat) { (s[x] = false) AND (g[x] = 0) }\n"+
		"unsafe (existential x:nat, existential y:nat) { (s[x] = true) AND (s[y] = true) }\n"+
		"transition (existential x:nat, universal y:nat) { guard: (s[x] = false) uguard: (s[y] = false) update: s[x] := true; g := g[x] + 1; }\n"+
		"transition (existential x:nat) { guard: (s[x] = true) update: lambda (j:nat; j != x) { case (j < x): s[j] := false; otherwise: s[j] := s[j]; } }")
	f.Add(uint8(1), ":index nat\n:local a bool\n:global g int\n:initial\n:var x\n:cnj (= a[x] false) (= g[x] 0)\n:u_cnj (= a[z1] true) (= a[z2] true)\n"+
		":transition\n:var x\n:var j\n:guard (= a[x] false)\n:uguard (= a[j] false)\n:numcases 2\n:case (= x j)\n :val true\n :val (+ g[j] 1)\n:case\n :val a[j]\n :val (+ g[j] 1)\n")
	f.Add(uint8(2), "type loc = I | W | C\nvar T : proc\narray P[proc] : loc\ninit (i) { P[i] = I }\nunsafe (i j) { P[i] = C && P[j] = C }\n"+
		"transition go (i)\nrequires { P[i] = W && T = i && forall_other k. (P[k] = I || P[k] = W) }\n{ P[i] := C; T := . }\n"+
		"transition back (i)\nrequires { P[i] <> I }\n{ P[j] := case | j = i : I | _ : P[j] }")
	f.Fuzz(func(t *testing.T, lang uint8, src string) {
		langs := []string{LangMCMT, LangMCMT1, LangCubicle}
		s, err := Parse("fuzz", []byte(src), langs[int(lang)%len(langs)])
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		in, err := system.NewInstance(s, 2)
		if err != nil {
			t.Fatalf("accepted model does not compile: %v", err)
		}
		in.InitLimit = 1 << 12
		// Exploration may fail on unbounded values; it must not panic.
		system.Explore(t.Context(), in, system.ExploreOptions{MaxStates: 200})
	})
}

// FuzzNesting checks that nesting as deep as a fuzzer likes (the text open
// n times, mid, close n times, between head and tail) is refused or read,
// never a crash. Run with: go test ./mcmt -fuzz FuzzNesting (corpus in
// testdata/fuzz).
func FuzzNesting(f *testing.F) {
	f.Add(uint8(0), "local bool s [nat]\nunsafe (existential x:nat) { ", "(", "s[x] = true", ")", " }", uint16(2000))
	f.Add(uint8(0), "local int s [nat]\nunsafe (existential x:nat) { s[x] = ", "- ", "1", "", " }", uint16(1500))
	f.Add(uint8(0), "local bool s [nat]\nunsafe (existential x:nat) { ", "NOT (", "s[x] = true", ")", " }", uint16(999))
	f.Add(uint8(1), ":index nat\n:local a bool\n:u_cnj ", "(not ", "(= a[z1] true)", ")", "", uint16(1200))
	f.Add(uint8(1), ":index nat\n:local a int\n:u_cnj (= a[z1] ", "(+ ", "1", " 1)", ")", uint16(998))
	f.Add(uint8(2), "array A[proc] : bool\nunsafe (i) { ", "(", "A[i] = True", ")", " }", uint16(5000))
	f.Add(uint8(2), "array A[proc] : bool\nunsafe (i) { ", "A[i] = True => ", "A[i] = True", "", " }", uint16(1001))
	f.Add(uint8(2), "var X : int\nunsafe () { X = 0", " + 1", "", "", " }", uint16(3000))
	f.Add(uint8(2), "array A[proc] : bool\nunsafe (i) { ", "A[i] = True && ", "A[i] = True", "", " }", uint16(20000))
	f.Add(uint8(2), "(* ", "(* ", "", "*)", " *)", uint16(10000))
	f.Fuzz(func(t *testing.T, lang uint8, head, open, mid, close, tail string, n uint16) {
		if len(open)+len(close) > 64 {
			return
		}
		langs := []string{LangMCMT, LangMCMT1, LangCubicle}
		src := head + strings.Repeat(open, int(n)) + mid + strings.Repeat(close, int(n)) + tail
		s, err := Parse("fuzz", []byte(src), langs[int(lang)%len(langs)])
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if _, err := system.NewInstance(s, 2); err != nil {
			t.Fatalf("accepted model does not compile: %v", err)
		}
	})
}
