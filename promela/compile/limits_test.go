package compile

import (
	"strings"
	"testing"

	"ftmc/promela"
)

// A model too large for the state vector's layout is refused at the
// proctype that crosses the bound, in the model's file.
func TestTooManyStatesPositioned(t *testing.T) {
	src := "byte x;\nactive proctype Small() { x++ }\nactive proctype Big() {\n" + strings.Repeat("x++;\n", 70000) + "}\n"
	prog, err := promela.Parse("big.pml", []byte(src), promela.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(prog)
	if err == nil || !strings.HasPrefix(err.Error(), "big.pml:3:1: the model has too many states") {
		t.Fatalf("got %v, want big.pml:3:1: the model has too many states ...", err)
	}
}
