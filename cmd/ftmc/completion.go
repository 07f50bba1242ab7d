package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

const completionUsage = `usage: ftmc completion bash|zsh|fish

Prints a script that completes ftmc's commands, the flags of each command
and the model files it reads (by extension) in that shell:

  source <(ftmc completion bash)                 # bash, e.g. in ~/.bashrc
  ftmc completion zsh > "${fpath[1]}/_ftmc"      # zsh (or source it)
  ftmc completion fish > ~/.config/fish/completions/ftmc.fish
`

// A command as the completion scripts know it: its name, the command
// lines that reach each of its flag sets with -h (check and verify have
// one per language), the extensions of the files it reads, and the words
// it takes instead (completion).
type completionCommand struct {
	name   string
	probes [][]string
	exts   []string
	words  []string
}

var completionCommands = []completionCommand{
	{name: "check", probes: [][]string{{"-h"}, {"--lang", "ta", "-h"}}, exts: []string{"pml", "ta"}},
	{name: "verify", probes: [][]string{{"--lang", "ta", "-h"}, {"--lang", "promela", "-h"}, {"--lang", "cubicle", "-h"}}, exts: []string{"ta", "pml", "mcmt", "in", "cub"}},
	{name: "sweep", probes: [][]string{{"-h"}}, exts: []string{"pml", "ta"}},
	{name: "trace", probes: [][]string{{"-h"}}, exts: []string{"json"}},
	{name: "completion", words: []string{"bash", "zsh", "fish"}},
	{name: "version"},
	{name: "help"},
}

// flagValues are the values of the flags that take one of a few words.
var flagValues = map[string][]string{
	"lang":        {"promela", "pml", "ta", "mcmt", "mcmt1", "cubicle"},
	"solver":      {"z3", "cvc5"},
	"cross-check": {"z3", "cvc5", "none"},
	"fairness":    {"weak", "none"},
}

// flagCollector is a command's stderr that keeps the flag sets newFlags
// makes for it, and discards what is written.
type flagCollector struct{ sets []*flag.FlagSet }

func (c *flagCollector) Write(p []byte) (int, error) { return len(p), nil }

// commandFlag is a flag as the completion scripts offer it.
type commandFlag struct {
	name  string // without dashes
	value string // "" for a boolean flag, else the value's name: FILE, DIR, value...
	usage string
}

// dashed is the flag as it is typed: -q, -D, --time.
func (f commandFlag) dashed() string { return dashed(f.name) }

// commandFlags are the flags of the command c, from its flag sets: each
// of c's probes runs the command with -h, which defines its flags and
// stops, into a flagCollector. The union, by name, sorted.
func commandFlags(c completionCommand) []commandFlag {
	byName := map[string]commandFlag{}
	for _, probe := range c.probes {
		col := &flagCollector{}
		e := &env{ctx: context.Background(), stdout: io.Discard, stderr: col}
		dispatch(e, append([]string{c.name}, probe...))
		for _, fs := range col.sets {
			fs.VisitAll(func(f *flag.Flag) {
				if _, seen := byName[f.Name]; seen {
					return
				}
				value, usage := flag.UnquoteUsage(f)
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
					value = ""
				} else if value == "" {
					value = "value"
				}
				byName[f.Name] = commandFlag{name: f.Name, value: value, usage: usage}
			})
		}
	}
	flags := make([]commandFlag, 0, len(byName))
	for _, f := range byName {
		flags = append(flags, f)
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].name < flags[j].name })
	return flags
}

// cmdCompletion prints the completion script of a shell.
func cmdCompletion(e *env, args []string) int {
	if len(args) == 1 {
		switch args[0] {
		case "bash":
			fmt.Fprint(e.stdout, bashCompletion())
			return 0
		case "zsh":
			fmt.Fprint(e.stdout, zshCompletion())
			return 0
		case "fish":
			fmt.Fprint(e.stdout, fishCompletion())
			return 0
		case "-h", "-help", "--help":
			fmt.Fprint(e.stdout, completionUsage)
			return 0
		}
	}
	fmt.Fprint(e.stderr, completionUsage)
	return 2
}

func commandNames() string {
	var names []string
	for _, c := range completionCommands {
		names = append(names, c.name)
	}
	return strings.Join(names, " ")
}

// shellWords is words joined by spaces, each quoted for a shell's single
// quotes by quote.
func shellWords(words []string, quote func(string) string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quote(w)
	}
	return strings.Join(q, " ")
}

// shQuote quotes s in single quotes for bash and zsh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishQuote quotes s in single quotes for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// flagsByValue splits flags into the dashed names of all, and of those
// whose value is a file, a directory, one of a few words, or another value.
func flagsByValue(flags []commandFlag) (all, files, dirs, other []string) {
	for _, f := range flags {
		all = append(all, f.dashed())
		switch {
		case f.value == "":
		case f.value == "FILE":
			files = append(files, f.dashed())
		case f.value == "DIR":
			dirs = append(dirs, f.dashed())
		case flagValues[f.name] == nil:
			other = append(other, f.dashed())
		}
	}
	return
}

// valueCases is the case arms, in sh syntax, that give the words of the
// flags that take one of a few, with each arm's body made by body.
func valueCases(flags []commandFlag, body func(words []string) string) string {
	var b strings.Builder
	for _, f := range flags {
		if w := flagValues[f.name]; w != nil && f.value != "" {
			fmt.Fprintf(&b, "\t\t%s) %s ;;\n", f.dashed(), body(w))
		}
	}
	return b.String()
}

func bashCompletion() string {
	var b strings.Builder
	b.WriteString(`# bash completion for ftmc: source <(ftmc completion bash)
_ftmc() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W '` + commandNames() + `' -- "$cur"))
		return
	fi
	local flags= files= dirs= other= exts=
	case ${COMP_WORDS[1]} in
`)
	for _, c := range completionCommands {
		fmt.Fprintf(&b, "\t%s)\n", c.name)
		if c.words != nil {
			fmt.Fprintf(&b, "\t\t[[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W %s -- \"$cur\"))\n\t\treturn ;;\n", shQuote(strings.Join(c.words, " ")))
			continue
		}
		flags := commandFlags(c)
		all, files, dirs, other := flagsByValue(flags)
		if cases := valueCases(flags, func(w []string) string {
			return fmt.Sprintf("COMPREPLY=($(compgen -W %s -- \"$cur\")); return", shQuote(strings.Join(w, " ")))
		}); cases != "" {
			b.WriteString("\t\tcase $prev in\n" + cases + "\t\tesac\n")
		}
		fmt.Fprintf(&b, "\t\tflags=%s files=%s dirs=%s other=%s exts=%s ;;\n",
			shQuote(strings.Join(all, " ")), shQuote(strings.Join(files, " ")), shQuote(strings.Join(dirs, " ")),
			shQuote(strings.Join(other, " ")), shQuote(strings.Join(c.exts, " ")))
	}
	b.WriteString(`	*) return ;;
	esac
	# The value of the flag before: a file, a directory, or none to offer.
	if [[ " $files " == *" $prev "* ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	elif [[ " $dirs " == *" $prev "* ]]; then
		COMPREPLY=($(compgen -d -- "$cur"))
		return
	elif [[ " $other " == *" $prev "* ]]; then
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags" -- "$cur"))
		return
	fi
	# Models (or reports) by extension, and directories to find them in.
	local ext
	COMPREPLY=($(compgen -d -- "$cur"))
	for ext in $exts; do
		COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
	done
}
complete -o filenames -F _ftmc ftmc
`)
	return b.String()
}

func zshCompletion() string {
	var b strings.Builder
	b.WriteString(`#compdef ftmc
# zsh completion for ftmc: ftmc completion zsh > "${fpath[1]}/_ftmc"

_ftmc() {
	local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
	if (( CURRENT == 2 )); then
		compadd -- ` + commandNames() + `
		return
	fi
	local -a flags files dirs other
	local exts=
	case ${words[2]} in
`)
	for _, c := range completionCommands {
		fmt.Fprintf(&b, "\t%s)\n", c.name)
		if c.words != nil {
			fmt.Fprintf(&b, "\t\t(( CURRENT == 3 )) && compadd -- %s\n\t\treturn ;;\n", shellWords(c.words, shQuote))
			continue
		}
		flags := commandFlags(c)
		all, files, dirs, other := flagsByValue(flags)
		if cases := valueCases(flags, func(w []string) string {
			return "compadd -- " + shellWords(w, shQuote) + "; return"
		}); cases != "" {
			b.WriteString("\t\tcase $prev in\n" + cases + "\t\tesac\n")
		}
		fmt.Fprintf(&b, "\t\tflags=(%s) files=(%s) dirs=(%s) other=(%s) exts=%s ;;\n",
			shellWords(all, shQuote), shellWords(files, shQuote), shellWords(dirs, shQuote),
			shellWords(other, shQuote), shQuote(strings.Join(c.exts, "|")))
	}
	b.WriteString(`	*) return ;;
	esac
	if (( ${files[(Ie)$prev]} )); then
		_files
		return
	elif (( ${dirs[(Ie)$prev]} )); then
		_files -/
		return
	elif (( ${other[(Ie)$prev]} )); then
		return
	fi
	if [[ $cur == -* ]]; then
		compadd -- $flags
		return
	fi
	_files -g "*.(${exts})"
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_ftmc "$@"
else
	compdef _ftmc ftmc
fi
`)
	return b.String()
}

func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for ftmc: ftmc completion fish > ~/.config/fish/completions/ftmc.fish\n")
	b.WriteString("complete -c ftmc -f\n")
	b.WriteString("complete -c ftmc -n __fish_use_subcommand -a " + fishQuote(commandNames()) + "\n")
	for _, c := range completionCommands {
		seen := "__fish_seen_subcommand_from " + c.name
		if c.words != nil {
			fmt.Fprintf(&b, "complete -c ftmc -n %s -a %s\n", fishQuote(seen), fishQuote(strings.Join(c.words, " ")))
			continue
		}
		for _, f := range commandFlags(c) {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			switch {
			case f.value == "":
			case f.value == "FILE" || f.value == "DIR":
				opt += " -r -F"
			case flagValues[f.name] != nil:
				opt += " -x -a " + fishQuote(strings.Join(flagValues[f.name], " "))
			default:
				opt += " -x"
			}
			fmt.Fprintf(&b, "complete -c ftmc -n %s %s -d %s\n", fishQuote(seen), opt, fishQuote(shortUsage(f.usage)))
		}
		for _, ext := range c.exts {
			fmt.Fprintf(&b, "complete -c ftmc -n %s -a %s\n", fishQuote(seen), fishQuote("(__fish_complete_suffix ."+ext+")"))
		}
	}
	return b.String()
}

// shortUsage is the start of a flag's usage, up to its first
// parenthesis, colon or semicolon, for a description on one line.
func shortUsage(u string) string {
	if i := strings.IndexAny(u, "(:;\n"); i > 0 {
		u = u[:i]
	}
	u = strings.TrimSpace(u)
	if r := []rune(u); len(r) > 60 {
		u = string(r[:59]) + "…"
	}
	return u
}
