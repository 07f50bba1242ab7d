package graph

import "testing"

// TestSCC: 0 -> 1 -> 2 -> 0 is one component, 3 and 4 are alone, and an
// edge between components leads to a smaller number.
func TestSCC(t *testing.T) {
	succ := [][]int{{1}, {2, 3}, {0}, {4}, {}}
	comp := SCC(len(succ), succ)
	if comp[0] != comp[1] || comp[1] != comp[2] {
		t.Fatalf("components %v: 0, 1 and 2 form a cycle", comp)
	}
	if comp[3] == comp[0] || comp[4] == comp[3] || comp[4] == comp[0] {
		t.Fatalf("components %v: 3 and 4 are alone", comp)
	}
	for v, ws := range succ {
		for _, w := range ws {
			if comp[v] != comp[w] && comp[w] >= comp[v] {
				t.Errorf("components %v: the edge %d -> %d leads to a number not smaller", comp, v, w)
			}
		}
	}
}
