package ltl

import (
	"strings"
	"testing"
)

// TestTranslateLimits feeds the translator formulas that blow up: each must
// come back, translated or rejected as too large.
func TestTranslateLimits(t *testing.T) {
	for _, c := range []struct {
		src     string
		tooBig  bool
		atLeast int // states
	}{
		{"a<->(b<->(c<->(d<->(e<->(f<->(g<->(h<->(i<->j))))))))", false, 1},
		{"a<->b<->c<->d<->e<->f<->g<->h<->i<->j<->k<->l<->m<->n<->o", true, 0},
		{strings.Repeat("[]<>a&&", 8) + "b", false, 1},
		{strings.Repeat("a U ", 14) + "b", false, 1},
		{strings.Repeat("(a U b) V ", 10) + "c", false, 1},
		{strings.Repeat("X ", 20) + " a", false, 21},
		{"[]<>a && []<>b && []<>c && []<>d && []<>e && []<>f && []<>g", false, 7},
		{"(<>[]a || []<>b) && (<>[]c || []<>d) && (<>[]e || []<>f)", false, 1},
		{strings.Repeat("<>(a && X ", 8) + "b" + strings.Repeat(")", 8), false, 1},
		{strings.Repeat("(a U (b && ", 6) + "c" + strings.Repeat("))", 6), false, 1},
	} {
		g, err := Parse(Pos{}, c.src)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Translate(g)
		if c.tooBig {
			if err == nil || !strings.Contains(err.Error(), "too large") {
				t.Errorf("Translate(%s): %v, want a too-large error", c.src, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Translate(%s): %v", c.src, err)
			continue
		}
		if n, _ := a.Size(); n < c.atLeast {
			t.Errorf("Translate(%s): %d states, want at least %d", c.src, n, c.atLeast)
		}
	}
}
