package system_test

import (
	"slices"
	"testing"

	"ftmc/mcmt/system"
)

// Conj and Disj drop their unit and nil, flatten their own connective, keep
// the other one, and give the unit for nothing and the formula for one.
func TestConjDisj(t *testing.T) {
	a, b, c := &system.Formula{Kind: system.Lit}, &system.Formula{Kind: system.Lit}, &system.Formula{Kind: system.Lit}
	tr, fa := &system.Formula{Kind: system.True}, &system.Formula{Kind: system.False}
	for _, tc := range []struct {
		name string
		got  *system.Formula
		kind system.FormKind
		args []*system.Formula
	}{
		{"empty conjunction", system.Conj(), system.True, nil},
		{"empty disjunction", system.Disj(nil, fa), system.False, nil},
		{"conjunction of one", system.Conj(tr, a, nil), system.Lit, nil},
		{"flat conjunction", system.Conj(system.Conj(a, b), tr, c), system.And, []*system.Formula{a, b, c}},
		{"flat disjunction", system.Disj(a, system.Disj(b, c), fa), system.Or, []*system.Formula{a, b, c}},
		{"conjunction keeps false", system.Conj(a, fa), system.And, []*system.Formula{a, fa}},
		{"disjunction keeps a conjunction", system.Disj(system.Conj(a, b), c), system.Or, []*system.Formula{system.Conj(a, b), c}},
	} {
		if tc.got.Kind != tc.kind || len(tc.got.Args) != len(tc.args) {
			t.Errorf("%s: kind %d with %d arguments, want %d with %d", tc.name, tc.got.Kind, len(tc.got.Args), tc.kind, len(tc.args))
			continue
		}
		if tc.kind == system.Lit && tc.got != a {
			t.Errorf("%s: %v, want the one formula itself", tc.name, tc.got)
		}
		if tc.kind == system.And || tc.kind == system.Or {
			if !slices.EqualFunc(tc.got.Args, tc.args, func(x, y *system.Formula) bool {
				return x == y || x.Kind == y.Kind && len(x.Args) == len(y.Args)
			}) {
				t.Errorf("%s: arguments %v, want %v", tc.name, tc.got.Args, tc.args)
			}
		}
	}
}
