package clip

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	long := strings.Repeat("é", 5000)
	if got := Text(long); got != strings.Repeat("é", Max)+"..." {
		t.Errorf("Text of 5000 characters: %q", got)
	}
	if got := Text("short"); got != "short" {
		t.Errorf("Text(short) = %q", got)
	}
	if got := Sprintf("undeclared %s in %s", strings.Repeat("x", 100), "a phrase with spaces that is longer than forty characters"); got != "undeclared "+strings.Repeat("x", Max)+"... in a phrase with spaces that is longer than forty characters" {
		t.Errorf("Sprintf: %q", got)
	}
}
