package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ftmc/trace"
)

// completionScripts are the scripts of ftmc completion, by shell.
func completionScripts(t *testing.T) map[string]string {
	t.Helper()
	scripts := map[string]string{}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, errs, code := runText(t, "completion", sh)
		if code != 0 || errs != "" || out == "" {
			t.Fatalf("ftmc completion %s: exit %d, stderr %q", sh, code, errs)
		}
		scripts[sh] = out
	}
	return scripts
}

// commandSection is the part of a script that completes the command c:
// its arm of the case in bash and zsh, its lines in fish.
func commandSection(sh, script string, c completionCommand) string {
	if sh == "fish" {
		var lines []string
		for _, l := range strings.Split(script, "\n") {
			if strings.Contains(l, "'__fish_seen_subcommand_from "+c.name+"'") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	_, rest, ok := strings.Cut(script, "\n\t"+c.name+")\n")
	if !ok {
		return ""
	}
	arm, _, _ := strings.Cut(rest, "\n\t;;")
	if i := regexp.MustCompile(`\n\t[a-z*]+\)\n`).FindStringIndex(arm); i != nil {
		arm = arm[:i[0]]
	}
	return arm
}

// TestCompletionFlags: each shell's script completes every flag of every
// command, as the commands' flag sets define them (all of a command's
// languages), and the model files by extension.
func TestCompletionFlags(t *testing.T) {
	scripts := completionScripts(t)
	// The flag sets are found: a few flags of each command's languages.
	for name, want := range map[string][]string{
		"check":  {"time", "memory", "ltl-formula", "param", "q", "quiet", "D"},
		"verify": {"time", "memory", "bounded", "emit-ta", "cross-check", "solver", "lang"},
		"sweep":  {"time", "trails", "D", "q"},
		"trace":  {"text", "msc", "property"},
	} {
		i := slices.IndexFunc(completionCommands, func(c completionCommand) bool { return c.name == name })
		var got []string
		for _, f := range commandFlags(completionCommands[i]) {
			got = append(got, f.name)
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("the flags of ftmc %s lack %s: %v", name, w, got)
			}
		}
	}
	for sh, script := range scripts {
		for _, c := range completionCommands {
			section := commandSection(sh, script, c)
			if section == "" && (c.probes != nil || c.words != nil) {
				t.Errorf("%s: no completion for ftmc %s", sh, c.name)
				continue
			}
			// The words offered for a "-": bash's and zsh's flags list,
			// fish's -l and -s options.
			offered := section
			if m := regexp.MustCompile(`flags=(?:'([^']*)'|\(([^)]*)\))`).FindStringSubmatch(section); sh != "fish" && m != nil {
				offered = strings.ReplaceAll(m[1]+m[2], "'", "")
			}
			for _, f := range commandFlags(c) {
				word := regexp.QuoteMeta(f.dashed())
				if sh == "fish" {
					word = `-[ls] ` + regexp.QuoteMeta(f.name)
				}
				if !regexp.MustCompile(`(^|\s)` + word + `(\s|$)`).MatchString(offered) {
					t.Errorf("%s: ftmc %s does not complete %s", sh, c.name, f.dashed())
				}
			}
			for _, ext := range c.exts {
				if !strings.Contains(section, ext) {
					t.Errorf("%s: ftmc %s does not complete .%s files", sh, c.name, ext)
				}
			}
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}} {
		if _, errs, code := runText(t, args...); code != trace.ExitUsage || !strings.Contains(errs, "bash|zsh|fish") {
			t.Errorf("ftmc %s: exit %d, stderr %q; want 2 and the usage", strings.Join(args, " "), code, errs)
		}
	}
}

// TestCompletionSyntax: each script is read by its shell without error
// (zsh and fish when they are installed).
func TestCompletionSyntax(t *testing.T) {
	dir := t.TempDir()
	for sh, script := range completionScripts(t) {
		bin, err := exec.LookPath(sh)
		if err != nil {
			if sh == "bash" {
				t.Fatal("bash is not installed")
			}
			t.Logf("%s is not installed: its script is not read", sh)
			continue
		}
		path := filepath.Join(dir, "ftmc."+sh)
		if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", sh, err, out)
		}
	}
}

// TestCompletionBash sources the bash script and asks it, as bash does
// on a tab, what completes a command line.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "ftmc.bash")
	if err := os.WriteFile(script, []byte(completionScripts(t)["bash"]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"m.pml", "a.ta", "lock.cub", "r.json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		words []string // the command line, the word completed last
		want  []string
	}{
		{[]string{"ftmc", "check", "--ti"}, []string{"--time"}},
		{[]string{"ftmc", "ch"}, []string{"check"}},
		{[]string{"ftmc", "verify", "m.pml", "--sol"}, []string{"--solver", "--solver-path", "--solver-timeout"}},
		{[]string{"ftmc", "verify", "--solver", ""}, []string{"cvc5", "z3"}},
		{[]string{"ftmc", "check", "--time", ""}, nil},
		{[]string{"ftmc", "check", ""}, []string{"a.ta", "m.pml"}},
		{[]string{"ftmc", "verify", ""}, []string{"a.ta", "lock.cub", "m.pml"}},
		{[]string{"ftmc", "trace", ""}, []string{"r.json"}},
		{[]string{"ftmc", "check", "--trail", "n"}, []string{"notes.txt"}},
		{[]string{"ftmc", "completion", ""}, []string{"bash", "fish", "zsh"}},
	} {
		var quoted []string
		for _, w := range c.words {
			quoted = append(quoted, shQuote(w))
		}
		driver := "source " + shQuote(script) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(c.words)-1) + "\n_ftmc\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", driver)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(c.words, " "), err, out)
			continue
		}
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			if l != "" {
				got = append(got, l)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: completes %q, want %q", strings.Join(c.words, " "), got, c.want)
		}
	}
}
