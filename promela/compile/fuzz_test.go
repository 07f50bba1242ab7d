package compile

import (
	"os"
	"path/filepath"
	"testing"

	"ftmc/promela"
)

// FuzzCompile checks that whatever the front end accepts, the compiler
// either rejects with an error or compiles into a model whose first states
// can be computed: no panic. The seeds are the models of this package and
// of the corpus.
func FuzzCompile(f *testing.F) {
	for _, g := range []string{"testdata/models/*.pml", "../../testdata/corpus/*.pml"} {
		files, _ := filepath.Glob(g)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, err := promela.Parse("fuzz.pml", src, promela.Options{})
		if err != nil {
			return
		}
		m, err := Compile(prog)
		if err != nil {
			return
		}
		s := explore(m, 2000)
		for _, v := range s.queue {
			m.Decode(v)
		}
	})
}
