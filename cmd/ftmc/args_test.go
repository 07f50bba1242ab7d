package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"ftmc/trace"
)

// TestFlagErrors: a bad flag is one line that says what is wrong, with
// what it quotes from the command line clipped, and a pointer to -h; the
// flags' usage is printed only for -h.
func TestFlagErrors(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "m.pml", "--ltl-formula", "[] p }" + long}, `ftmc check: invalid value "[] p }xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." for flag -ltl-formula`},
		{[]string{"check", "m.pml", "--no" + long}, "ftmc check: flag provided but not defined: -no" + strings.Repeat("x", 37) + "..."},
		{[]string{"verify", "m.ta", "--time", long}, `ftmc verify: invalid value "` + strings.Repeat("x", 40) + `..." for flag -time`},
		{[]string{"sweep", "m.pml", "--json=" + long}, `ftmc sweep: invalid boolean value "` + strings.Repeat("x", 40) + `..." for -json`},
		{[]string{"trace", "r.json", "--msc-text=" + long}, `ftmc trace: invalid boolean value "`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}, c.args)
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != trace.ExitUsage || len(lines) != 2 || !strings.HasPrefix(lines[0], c.want) || !strings.Contains(lines[1], "-h' for its flags") || len(stderr.String()) > 400 {
			t.Errorf("ftmc %s ...: exit %d, want 2 and two lines, the first starting %q:\n%.600s", c.args[0], code, c.want, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(&env{ctx: context.Background(), stdout: &stdout, stderr: &stderr}, []string{"check", "-h"}); code != 0 || !strings.Contains(stderr.String()+stdout.String(), "-ltl-formula") {
		t.Errorf("ftmc check -h: exit %d, want 0 and the flags:\n%s%s", code, stdout.String(), stderr.String())
	}
}
