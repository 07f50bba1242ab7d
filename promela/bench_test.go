package promela

import (
	"fmt"
	"strings"
	"testing"
)

// bigModel returns a model of about n lines: channels, a typedef, an
// inline, and many proctypes with loops, sends, receives and macros.
func bigModel(n int) string {
	var b strings.Builder
	b.WriteString(`#define N 4
#define SEND(c, v) c!msg(v)
mtype = { msg, ack, nak };
typedef Pair { byte a; short b[2] };
chan ch[N] = [2] of { mtype, byte };
Pair pairs[N];
int total;
inline bump(x, d) {
	x = x + d;
	total++
}
`)
	lines := 11
	for i := 0; lines < n; i++ {
		fmt.Fprintf(&b, `active proctype P%d() {
	byte v, i;
	mtype m;
end:	do
	:: SEND(ch[%d %% N], v) -> v++
	:: ch[%d %% N]?m, v ->
		if
		:: m == msg -> bump(pairs[v %% N].a, 1)
		:: else -> pairs[v %% N].b[1] = (v > 2 -> v : 2 * v)
		fi
	:: atomic { i < N -> i++; total = total + i }
	:: d_step { i >= N -> i = 0 }
	od
}
`, i, i, i+1)
		lines += 14
	}
	return b.String()
}

// BenchmarkParse measures preprocessing, parsing and resolving a model of
// about 1000 lines.
func BenchmarkParse(b *testing.B) {
	src := []byte(bigModel(1000))
	if _, err := Parse("big.pml", src, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("big.pml", src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBigModel(t *testing.T) {
	src := bigModel(1000)
	prog, err := Parse("big.pml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(src, "\n"); got < 1000 || len(prog.Procs) < 60 {
		t.Errorf("%d lines, %d proctypes", got, len(prog.Procs))
	}
	if ids := unresolved(prog); len(ids) > 0 {
		t.Errorf("%s at %s has no symbol", ids[0].Name, ids[0].NamePos)
	}
}
