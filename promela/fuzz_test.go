package promela

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to the preprocessor, parser and resolver:
// they must return a program or errors with positions, never panic or
// loop. The seeds are the broken models, the ByMC benchmarks and Spin's
// examples (where present); the corpus found by fuzzing is kept in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	var seeds []string
	globs := []string{
		filepath.Join("testdata", "errors", "*.pml"),
		filepath.Join("..", "..", "shared", "benchmarks", "bymc", "*", "*.pml"),
		filepath.Join("..", "..", "shared", "benchmarks", "bymc", "*", "*", "*.pml"),
		filepath.Join(spinExamplesDir, "Examples", "*.pml"),
		filepath.Join(spinExamplesDir, "Examples", "*", "*.pml"),
		filepath.Join("..", "testdata", "corpus", "*.pml"),
		filepath.Join("..", "examples", "*", "*.pml"),
	}
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		seeds = append(seeds, m...)
	}
	for _, s := range seeds {
		if strings.HasPrefix(filepath.Base(s), "limit_") {
			continue // slow by design: mutations of them would stall the fuzzer
		}
		if src, err := os.ReadFile(s); err == nil {
			f.Add(string(src))
		}
	}
	f.Add(bymcModel)
	f.Add("#define F(x) F(x) + G\n#define G F(1)\nint y = F(G);")
	f.Fuzz(func(t *testing.T, src string) {
		opts := Options{
			Defines: map[string]string{"SPIN": "1"},
			// Included files come from memory: the fuzzer must not read
			// the disk.
			ReadFile: memFiles(map[string]string{"inc.h": "byte inc;\n#define INC 1\n", "self.h": "#include \"self.h\"\n"}),
		}
		prog, err := Parse("fuzz.pml", []byte(src), opts)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		// A program that resolved can be printed (and read back the same)
		// and instantiated.
		checkRoundTrip(t, prog)
		Inspect(prog, func(n Node) bool {
			if s, ok := n.(Stmt); ok {
				_ = StmtString(s)
			}
			if x, ok := n.(Expr); ok {
				_ = ExprString(x)
			}
			return true
		})
		if len(prog.Params) > 0 {
			vals := map[string]int64{}
			for _, p := range prog.Params {
				vals[p.Name] = 3
			}
			_, _ = Instantiate(prog, vals)
		}
	})
}
