package compile

import (
	"regexp"
	"strings"
	"testing"

	"ftmc/state"
)

// The references to byte variables and to arrays of bytes indexed by one
// (byteRef), and the operators with a constant operand, are computed in
// place. Each case is a program written twice: with byte indices and
// constants (computed in place) and with short indices and variables
// holding the constants (computed through the general closures). Both must
// reach the same states and fail with the same message.
var inPlaceCases = []struct {
	name string
	src  string // IDX is the index type, K1, K2, K3 constants 1, 2, 3
	kind string
	msg  string // part of the failure's message
}{
	{"affine index reads and writes", `
		byte a[6]; bit b[3]; IDX i;
		active proctype p() {
			do
			:: i < K2 -> atomic { a[i * K2 + K1] = a[i * K2] + K3; b[i + K1] = 5; i++ }
			:: i == K2 -> break
			od;
			assert(a[1] == 3 && a[3] == 3 && a[5] == 0 && b[1] == 1 && b[2] == 1)
		}`, "", ""},
	{"index above the array", `
		byte a[3]; IDX i;
		active proctype p() { i = K1; a[i * K2 + K1] = 1 }`, state.KindRuntime, "invalid array index 3 in a[i * K2 + K1] (length 3)"},
	{"negative index", `
		byte a[3]; IDX i;
		active proctype p() { a[i - K1] = 1 }`, state.KindRuntime, "invalid array index -1 in a[i - K1] (length 3)"},
	{"index read out of bounds", `
		byte a[3]; IDX i = 3;
		active proctype p() { atomic { a[0] == 0 -> i = a[i] } }`, state.KindRuntime, "invalid array index 3 in a[i] (length 3)"},
	{"local index and local array", `
		byte g[4];
		active proctype p() {
			IDX i; byte l[3];
			do
			:: i < K3 -> l[i] = i + K1; g[l[i]] = K2 * i; i++
			:: else -> break
			od;
			assert(l[0] == 1 && l[2] == 3 && g[3] == 4 && g[1] == 0)
		}`, "", ""},
	{"comparisons with a constant", `
		byte x = 2; bit ok;
		active proctype p() {
			ok = (x == K2) && (x != K1) && (x < K3) && (x <= K2) && (x > K1) && (x >= K2) && !(x < K2) && (x - K3 == -1) && (x + K3 == 5);
			assert(ok)
		}`, "", ""},
	{"remainder and division by a constant", `
		short s = -7; byte x = 7; short r;
		active proctype p() {
			r = s % K3; assert(r == -1);
			r = x % K3; assert(r == 1);
			r = (x - K3) % K3; assert(r == 1);
			r = (x - K2) % K3; assert(r == 2);
			r = (x + K2) % K3; assert(r == 0);
			r = K2 % K3; assert(r == 2);
			r = s / K2; assert(r == -3);
			r = (x * K3) & K2; assert(r == 1 * 0 + 0);
			assert((x & K3) == 3)
		}`, "", ""},
	{"logical operators with a constant", `
		byte x; bit ok;
		active proctype p() {
			ok = (K1 && x == 0) && (x == 0 && K1) && ((0 * K1) || x == 0) && (x == 0 || (0 * K1)) && !(K1 && x == 1);
			assert(ok)
		}`, "", ""},
	{"a constant stored truncated", `
		bit b; byte x;
		active proctype p() { atomic { b = K2 + K1; x = 256 + K3 }; assert(b == 1 && x == 3) }`, "", ""},
	{"channel of an array of channels", `
		chan c[3] = [1] of { byte }; IDX i = 1;
		active proctype p() { c[i * K2 - K1]!K3; assert(len(c[1]) == 1 && nempty(c[i]) && full(c[i]) && empty(c[0])) }`, "", ""},
	{"conditional expression with a constant", `
		byte x = 1, y;
		active proctype p() { y = (x == K1 -> K2 : x); assert(y == 2); x = 3; y = (x == K1 -> K2 : x); assert(y == 3) }`, "", ""},
	{"byte operand on the right", `
		byte x = 2, y = 3; byte a[3] = 1; IDX i = 1; bit ok;
		active proctype p() {
			ok = (y - x == K1) && (K3 + x == 5) && (K3 == y) && (K2 != y) && (x < y) && (x <= a[i] + K1) && (y > x) && (y >= a[i - K1]);
			assert(ok && (x - y) < 0)
		}`, "", ""},
	{"channel predicates under && and || with a constant", `
		chan c[2] = [1] of { byte }; IDX i = 1; byte n;
		active proctype p() {
			c[i]!K1;
			(K1 && nempty(c[i])) -> c[i]?_;
			if :: K1 && empty(c[i]) -> n++ :: else fi;
			if :: (0 * K1) || full(c[0]) -> n = 9 :: else -> n++ fi;
			if :: nfull(c[i]) && K1 -> n++ :: else fi;
			n = n + (K1 && (i == 1)) + ((i == 1) || (0 * K1));
			assert(n == 5)
		}`, "", ""},
}

var posRe = regexp.MustCompile(`^test\.pml:\d+:\d+: `)

func TestInPlaceLikeGeneral(t *testing.T) {
	for _, c := range inPlaceCases {
		t.Run(c.name, func(t *testing.T) {
			consts := strings.NewReplacer("IDX", "byte", "K1", "1", "K2", "2", "K3", "3")
			fast := consts.Replace(c.src)
			want := consts.Replace(c.msg)
			general := strings.NewReplacer("IDX", "short", "K1", "k1", "K2", "k2", "K3", "k3").Replace(c.src)
			general = "short k1 = 1, k2 = 2, k3 = 3;" + general
			f := explore(compileSrc(t, fast, nil), 0)
			g := explore(compileSrc(t, general, nil), 0)
			if f.kind != c.kind || !strings.Contains(f.msg, want) {
				t.Errorf("verdict %q (%s), want %q (%s)", f.kind, f.msg, c.kind, want)
			}
			// The messages start with a position: the declarations differ
			// in length.
			fmsg := posRe.ReplaceAllString(f.msg, "")
			gmsg := posRe.ReplaceAllString(strings.NewReplacer("k1", "1", "k2", "2", "k3", "3").Replace(g.msg), "")
			if f.kind != g.kind || f.states != g.states || fmsg != gmsg {
				t.Errorf("in place: %q (%s), %d states; general: %q (%s), %d states", f.kind, f.msg, f.states, g.kind, g.msg, g.states)
			}
		})
	}
}
