package promela

import (
	"strings"
	"testing"
)

// scanAll returns the tokens of src as "kind:text@line:col" strings.
func scanAll(t *testing.T, src string) ([]string, []string) {
	t.Helper()
	var errs []string
	var s scanner
	file := "x.pml"
	s.init(&file, []byte(src), func(p Pos, msg string) { errs = append(errs, p.String()+": "+msg) })
	var out []string
	for {
		s.next()
		if s.tok == EOF {
			return out, errs
		}
		text := string(s.text())
		if s.tok == INT {
			text += "=" + itoa(int(s.val))
		}
		out = append(out, s.tok.String()+":"+text+"@"+itoa(int(s.pos.Line))+":"+itoa(int(s.pos.Col)))
	}
}

func TestScanner(t *testing.T) {
	tests := []struct {
		src  string
		want string // space-separated tokens
		err  string // substring of the first error, if any
	}{
		{"x", "identifier:x@1:1", ""},
		{"  _a1 B_2", "identifier:_a1@1:3 identifier:B_2@1:7", ""},
		{"12 0 007", "number:12=12@1:1 number:0=0@1:4 number:007=7@1:6", ""},
		{"0x10", "number:0=0@1:1 identifier:x10@1:2", ""}, // Spin reads decimal only
		{"'a' '\\n' '\\''", "number:'a'=97@1:1 number:'\\n'=10@1:5 number:'\\''=39@1:10", ""},
		{`"hi \"there\""`, `string:"hi \"there\""@1:1`, ""},
		{"a->b", "identifier:a@1:1 ->:->@1:2 identifier:b@1:4", ""},
		{"-- ++ - +", "--:--@1:1 ++:++@1:4 -:-@1:7 +:+@1:9", ""},
		{"<< <= < >> >= >", "<<:<<@1:1 <=:<=@1:4 <:<@1:7 >>:>>@1:9 >=:>=@1:12 >:>@1:15", ""},
		{"== = != !! !", "==:==@1:1 =:=@1:4 !=:!=@1:6 !!:!!@1:9 !:!@1:12", ""},
		{"?? ? :: : .. .", "??:??@1:1 ?:?@1:4 :::::@1:6 :::@1:9 ..:..@1:11 .:.@1:14", ""},
		{"&& & || | ^ ~ % * /", "&&:&&@1:1 &:&@1:4 ||:||@1:6 |:|@1:9 ^:^@1:11 ~:~@1:13 %:%@1:15 *:*@1:17 /:/@1:19", ""},
		{"( ) [ ] { } , ; @ # ##", "(:(@1:1 ):)@1:3 [:[@1:5 ]:]@1:7 {:{@1:9 }:}@1:11 ,:,@1:13 ;:;@1:15 @:@@1:17 #:#@1:19 ##:##@1:21", ""},
		{"/\\ \\/", "/:/@1:1 \\:\\@1:2 \\:\\@1:4 /:/@1:5", ""},
		{"a /* c\n c */ b // d\n e", "identifier:a@1:1 identifier:b@2:7 identifier:e@3:2", ""},
		{"a\\\nb", "identifier:a@1:1 identifier:b@2:1", ""},
		{"1..3", "number:1=1@1:1 ..:..@1:2 number:3=3@1:4", ""},
		{"\ta\n\tb", "identifier:a@1:2 identifier:b@2:2", ""},
		{"/* open", "", "1:1: comment not terminated"},
		{`"open`, "string:\"open@1:1", "1:1: string not terminated"},
		{"'x", "number:'x=120@1:1", "character constant not terminated"},
		{"a $ b", "identifier:a@1:1 ILLEGAL:$@1:3 identifier:b@1:5", "unexpected character '$'"},
		{"99999999999999999999", "number:99999999999999999999=999999999999999999@1:1", "integer constant too large"},
		{"é", "ILLEGAL:é@1:1", "unexpected non-ASCII character"},
		{"\xEF\xBB\xBFx", "identifier:x@1:1", ""},
	}
	for _, tt := range tests {
		got, errs := scanAll(t, tt.src)
		if strings.Join(got, " ") != tt.want {
			t.Errorf("scan %q:\n got %s\nwant %s", tt.src, strings.Join(got, " "), tt.want)
		}
		switch {
		case tt.err == "" && len(errs) > 0:
			t.Errorf("scan %q: unexpected errors %v", tt.src, errs)
		case tt.err != "" && (len(errs) == 0 || !strings.Contains(errs[0], tt.err)):
			t.Errorf("scan %q: errors %v, want %q", tt.src, errs, tt.err)
		}
	}
}

func TestScannerLineFlags(t *testing.T) {
	var s scanner
	file := "x.pml"
	s.init(&file, []byte("a b\n  c /* x\n y */ d\n#e"), nil)
	type flags struct {
		text             string
		space, lineStart bool
	}
	want := []flags{{"a", false, true}, {"b", true, false}, {"c", true, true}, {"d", true, true}, {"#", true, true}, {"e", false, false}}
	for i, w := range want {
		s.next()
		if got := (flags{string(s.text()), s.space, s.lineStart}); got != w {
			t.Errorf("token %d: got %+v, want %+v", i, got, w)
		}
	}
}

func TestScannerSkipToDirective(t *testing.T) {
	var s scanner
	file := "x.pml"
	src := "don't care ' \" here\n/* # not\n this */ text\n  # endif\n"
	s.init(&file, []byte(src), func(p Pos, msg string) { t.Errorf("unexpected error %s: %s", p, msg) })
	if !s.skipToDirective() {
		t.Fatal("no directive found")
	}
	s.next()
	if s.tok != HASH || s.pos.Line != 4 || s.pos.Col != 3 {
		t.Fatalf("got %s at %s, want # at 4:3", s.tok, s.pos)
	}
	s.skipLine()
	if s.skipToDirective() {
		t.Fatal("found a second directive")
	}
}
