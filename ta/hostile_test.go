package ta

import (
	"strings"
	"testing"
)

// Errors name characters, not bytes: a UTF-8 character is shown as
// itself, columns count characters, and bytes that are not text are named.
func TestErrorCharacters(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"skel P { é", "u.ta:1:10: unexpected character 'é'"},
		{"/* é */ skel P { local x; } ! ", "u.ta:1:29: expected end of file, found \"!\""},
		{"/* ééé */ skel P { ∀", "u.ta:1:20: unexpected character '∀'"},
		{"skel P { \xff", "u.ta:1:10: unexpected byte 0xff (the file is not UTF-8 text)"},
		{"skel P { \x00", "u.ta:1:10: unexpected NUL byte"},
		{"skel P { /* \x00 */", "u.ta:1:13: unexpected NUL byte"},
	} {
		_, err := Parse("u.ta", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s", tc.src, err, tc.want)
		}
	}
}

// An error message quotes at most 40 characters of a name from the input.
func TestLongNameClipped(t *testing.T) {
	long := strings.Repeat("x", 5<<20)
	for _, src := range []string{
		"skel P { " + long + " }",
		"skel P { local " + long + "; shared " + long + "; }",
	} {
		_, err := Parse("l.ta", []byte(src))
		if err == nil {
			t.Fatalf("%.50s: no error", src)
		}
		msg := err.Error()
		if len(msg) > 300 || !strings.Contains(msg, strings.Repeat("x", 40)+"...") {
			t.Errorf("%.50s: error of %d bytes: %.300s", src, len(msg), msg)
		}
	}
}

// A file that does not end is refused at the bound.
func TestParseFileBounded(t *testing.T) {
	_, err := ParseFile("/dev/zero")
	if err == nil || err.Error() != "/dev/zero: larger than 64 MB: too large for a model file" {
		t.Errorf("ParseFile(/dev/zero): %v", err)
	}
}

// Deep nesting is refused at the level past the bound, for every way of
// nesting (parentheses, prefix operators, unary minus), not by running out
// of stack.
func TestNestingBounded(t *testing.T) {
	const deep = 5000
	for _, tc := range []struct{ name, expr string }{
		{"parentheses", strings.Repeat("(", deep) + "1" + strings.Repeat(")", deep)},
		{"negation", strings.Repeat("! ", deep) + "true"},
		{"eventually", strings.Repeat("<> ", deep) + "true"},
		{"minus", strings.Repeat("- ", deep) + "1"},
	} {
		src := "skel P { local pc; shared x; assumptions (1) { " + tc.expr + "; } }"
		_, err := Parse("d.ta", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "expression nested too deeply") {
			t.Errorf("%s: got %.200v, want expression nested too deeply", tc.name, err)
		}
	}
}
