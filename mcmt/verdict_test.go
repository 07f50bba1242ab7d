package mcmt

import (
	"testing"

	"ftmc/trace"
)

func TestVerdictWords(t *testing.T) {
	for _, c := range []struct {
		lang string
		v    trace.Verdict
		want string
	}{
		{LangCubicle, trace.Holds, "Cubicle: SAFE"},
		{LangCubicle, trace.Violated, "Cubicle: UNSAFE"},
		{LangCubicle, trace.Unknown, ""},
		{LangMCMT, trace.Holds, "MCMT: SAFE"},
		{LangMCMT1, trace.Violated, "MCMT: UNSAFE"},
		{LangMCMT1, trace.Unknown, ""},
		{"promela", trace.Holds, ""},
	} {
		if got := VerdictWords(c.lang, c.v); got != c.want {
			t.Errorf("VerdictWords(%q, %s) = %q, want %q", c.lang, c.v, got, c.want)
		}
	}
}
