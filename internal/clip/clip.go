// Package clip shortens what an error message quotes from the input, so
// that a name of megabytes in a hostile model is shown by its start. The
// front ends (Promela, threshold automata, MCMT and Cubicle) share it.
package clip

import (
	"fmt"
	"strings"
)

// Max is the number of characters of the input an error message quotes at
// most.
const Max = 40

// Text shortens s to Max characters and "...".
func Text(s string) string {
	n := 0
	for i := range s {
		if n == Max {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// Sprintf is fmt.Sprintf with the words among args (strings without a
// space: names and numbers from the input; the phrases of messages have
// spaces) clipped by Text.
func Sprintf(format string, args ...any) string {
	for i, a := range args {
		if s, ok := a.(string); ok && !strings.Contains(s, " ") {
			args[i] = Text(s)
		}
	}
	return fmt.Sprintf(format, args...)
}
