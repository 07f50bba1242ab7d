package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ftmc/explore"
	"ftmc/internal/clip"
	"ftmc/internal/editdist"
	"ftmc/internal/ident"
	"ftmc/trace"
)

// newFlags returns a flag set for a subcommand whose errors go to w. A
// flagCollector w keeps it (ftmc completion reads the commands' flags so).
func newFlags(name string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ftmc "+name, flag.ContinueOnError)
	fs.SetOutput(w)
	if c, ok := w.(*flagCollector); ok {
		c.sets = append(c.sets, fs)
	}
	return fs
}

// parseArgs parses args with fs, allowing flags before and after positional
// arguments (users type `ftmc check model.pml -D N=3` as they type spin and
// cc commands). It also accepts the cc/spin spelling -DNAME=VALUE and treats
// everything after "--" as positional. It returns the positional arguments.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var norm []string
	for i, a := range args {
		if a == "--" {
			norm = append(norm, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-D") && len(a) > 2 && a[2] != '=' {
			norm = append(norm, "-D", a[2:])
			continue
		}
		norm = append(norm, a)
	}
	// The flag package prints an error and then the whole usage; print
	// the usage only when asked (-h), and an error as one line, with what
	// it quotes from the command line clipped.
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	addSynonyms(fs)
	var pos []string
	for {
		if err := fs.Parse(norm); err != nil {
			fs.SetOutput(out)
			switch {
			case !errors.Is(err, flag.ErrHelp):
				fmt.Fprintf(out, "%s: %s%s\nRun '%s -h' for its flags.\n", fs.Name(), clipQuoted(err.Error()), didYouMean(fs, err), fs.Name())
			case usage != nil:
				usage()
			default:
				fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
				fs.PrintDefaults()
			}
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		norm = rest[1:]
	}
}

// parseCommand parses a command's args with fs (parseArgs) and returns
// the positional arguments, or the exit code when the command ends there:
// 0 after -h, 2 (usage) after a bad flag, which parseArgs has said, or
// without a positional argument (the model) when usage is not "": usage
// is then printed to fs's output. The code is -1 when the command goes on.
func parseCommand(fs *flag.FlagSet, args []string, usage string) ([]string, int) {
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, 0
	case err != nil:
		return nil, trace.ExitUsage
	case len(pos) == 0 && usage != "":
		fmt.Fprint(fs.Output(), strings.TrimSuffix(usage, "\n")+"\n")
		return nil, trace.ExitUsage
	}
	return pos, -1
}

// synonyms are the short and long names of one flag: a command that has
// either accepts both, so that the same meaning has the same names in
// every command.
var synonyms = [][2]string{{"q", "quiet"}}

// addSynonyms defines the missing name of each synonym pair fs has one of.
func addSynonyms(fs *flag.FlagSet) {
	for _, p := range synonyms {
		for i, name := range p {
			other := p[1-i]
			if f := fs.Lookup(name); f != nil && fs.Lookup(other) == nil {
				fs.Var(f.Value, other, "same as "+dashed(name))
			}
		}
	}
}

// dashed is a flag's name as the manual writes it: -q, --time.
func dashed(name string) string {
	if utf8.RuneCountInString(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// didYouMean is " (did you mean --time?)" for a flag that is not defined
// but close to one of fs's names (by edit distance, a swap of two
// neighbouring letters counting as one edit), else "".
func didYouMean(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	name = strings.TrimPrefix(name, "-")
	if utf8.RuneCountInString(name) > 64 {
		return ""
	}
	best, bestDist := "", 0
	fs.VisitAll(func(f *flag.Flag) {
		d := editdist.Distance(name, f.Name)
		if best == "" || d < bestDist || d == bestDist && f.Name < best {
			best, bestDist = f.Name, d
		}
	})
	// One edit in a short name, two in a longer one: beyond that the
	// guess is more often wrong than right.
	max := 1
	if utf8.RuneCountInString(name) > 4 {
		max = 2
	}
	if best == "" || bestDist > max || bestDist >= utf8.RuneCountInString(best) {
		return ""
	}
	return " (did you mean " + dashed(best) + "?)"
}

// quoted is a Go-quoted string in an error message.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipQuoted clips the quoted strings of an error message (values from the
// command line) to clip.Max characters.
func clipQuoted(msg string) string {
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "flag provided but not defined: " + clip.Text(name)
	}
	return quoted.ReplaceAllStringFunc(msg, func(q string) string {
		s, err := strconv.Unquote(q)
		if err != nil || utf8.RuneCountInString(s) <= clip.Max {
			return q
		}
		return strconv.Quote(clip.Text(s))
	})
}

// defines collects repeated -D NAME[=VALUE] flags in order.
type defines struct {
	names  []string
	values map[string]string
}

func (d *defines) String() string {
	var b strings.Builder
	for i, n := range d.names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", n, d.values[n])
	}
	return b.String()
}

// Set accepts NAME, NAME=VALUE. Without a value a macro is defined as 1, as
// by cc and spin.
func (d *defines) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok {
		val = "1"
	}
	if !ident.Valid(name) {
		return fmt.Errorf("-D %s: expected NAME or NAME=VALUE", s)
	}
	if d.values == nil {
		d.values = map[string]string{}
	}
	if _, seen := d.values[name]; !seen {
		d.names = append(d.names, name)
	}
	d.values[name] = val
	return nil
}

// Map returns the definitions as a map (nil when there are none).
func (d *defines) Map() map[string]string {
	if len(d.names) == 0 {
		return nil
	}
	m := make(map[string]string, len(d.values))
	for k, v := range d.values {
		m[k] = v
	}
	return m
}

// params is --param N=7,T=2,F=2 (repeatable; later values win).
type params map[string]int64

func (p *params) String() string {
	if p == nil || *p == nil {
		return ""
	}
	keys := make([]string, 0, len(*p))
	for k := range *p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, (*p)[k]))
	}
	return strings.Join(parts, ",")
}

func (p *params) Set(s string) error {
	if *p == nil {
		*p = params{}
	}
	for _, kv := range strings.Split(s, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !ident.Valid(strings.TrimSpace(name)) {
			return fmt.Errorf("--param %s: expected NAME=INT[,NAME=INT]...", s)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return fmt.Errorf("--param %s: %q is not an integer", s, val)
		}
		name = strings.TrimSpace(name)
		if old, dup := (*p)[name]; dup {
			return fmt.Errorf("--param: %s is given twice (%d and %d)", name, old, n)
		}
		(*p)[name] = n
	}
	return nil
}

// byteSize is a memory limit such as 8GB, 512MiB or 1000000B; 0 is no
// limit.
type byteSize int64

// String is the size in bytes, with its unit so that Set reads it back.
func (b *byteSize) String() string {
	if *b == 0 {
		return "0"
	}
	return strconv.FormatInt(int64(*b), 10) + "B"
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

func parseByteSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(0)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{
		{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
	} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q: expected a size such as 8GB, 512MB or 1.5GB", s)
	}
	if mult == 0 {
		if f != 0 {
			// A bare number is most often meant in gigabytes or
			// megabytes, not in bytes: ask rather than guess.
			return 0, fmt.Errorf("a size needs a unit: %sGB or %sMB (or %sB for bytes)", t, t, t)
		}
		mult = 1
	}
	return int64(f * float64(mult)), nil
}

// duration is a time flag such as 10s or 1m30s, as time.ParseDuration
// reads it, with an error that says what to write instead of a number
// without a unit.
type duration time.Duration

func (d *duration) String() string { return time.Duration(*d).String() }

func (d *duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		t := strings.TrimSpace(s)
		if _, nerr := strconv.ParseFloat(t, 64); nerr == nil && t != "0" {
			return fmt.Errorf("a duration needs a unit: %ss (or ms, m, h)", t)
		}
		return errors.New("expected a duration such as 10s, 1m30s or 2h")
	}
	*d = duration(v)
	return nil
}

// durationVar defines a duration flag, as fs.DurationVar, whose errors
// suggest a unit.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*duration)(p), name, usage)
}

// limits are the flags every engine shares.
type limits struct {
	time   time.Duration
	memory byteSize
	jobs   int
}

func (l *limits) register(fs *flag.FlagSet) {
	durationVar(fs, &l.time, "time", 0, "stop after this long with verdict unknown (e.g. 10m; 0: no limit)")
	fs.Var(&l.memory, "memory", "stop when memory use reaches this with verdict unknown (e.g. 8GB; 0: no limit)")
	fs.IntVar(&l.jobs, "j", 1, "number of parallel workers")
}

// budget is what the run may spend by these limits, --time counted from
// since (from Bound's call when zero). Without --memory on the command
// line (fs; nil when there is none) it is check's default memory limit,
// which also becomes l.memory for the searches that take the limit
// themselves. This is the one place of that default.
func (l *limits) budget(fs *flag.FlagSet, since time.Time) explore.Budget {
	b := explore.Budget{Time: l.time, Since: since, Memory: int64(l.memory)}
	if fs == nil || !flagGiven(fs, "memory") {
		b.Memory, b.MemoryFrom = defaultMemoryLimit(1)
		l.memory = byteSize(b.Memory)
	}
	return b
}

// flagGiven reports whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	if fs == nil {
		return false
	}
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
