package promela

import (
	"fmt"
	"sort"
	"strings"

	"ftmc/internal/clip"
)

// Pos is a position in a source file: file name, line and column (both
// counted from 1; the column counts bytes). The zero Pos is "no position".
//
// Positions always point into the original files, also for tokens that came
// out of a macro expansion (they carry the position of the macro's use) or
// out of an #include (they carry the included file's name).
type Pos struct {
	file      *string
	Line, Col int32
}

// MakePos returns the position line:col in the file whose name is *file.
// Positions of one file share the pointer, so a Pos stays two words and a
// pointer.
func MakePos(file *string, line, col int32) Pos { return Pos{file, line, col} }

// Filename returns the name of the position's file, or "" if it has none.
func (p Pos) Filename() string {
	if p.file == nil {
		return ""
	}
	return *p.file
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col (or line:col without a file name, or
// "-" when p is not valid).
func (p Pos) String() string {
	if !p.IsValid() {
		if f := p.Filename(); f != "" {
			return f
		}
		return "-"
	}
	if f := p.Filename(); f != "" {
		return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Before reports whether p comes before q (by file name, line, column).
func (p Pos) Before(q Pos) bool {
	if pf, qf := p.Filename(), q.Filename(); pf != qf {
		return pf < qf
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Error is an error in the input: a position and what was wrong there.
type Error struct {
	Pos Pos
	Msg string
	Err error // what the error comes from, if not the text: a file's reading that was stopped
}

// Unwrap returns what the error comes from, if it is known.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Pos.IsValid() || e.Pos.Filename() != "" {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// MaxErrors is the number of errors an ErrorList keeps; later ones are
// dropped, since after that many errors the rest are mostly consequences
// of the first ones, and the reading stops soon after (as Go's does).
const MaxErrors = 10

// ErrorList is a list of errors sorted by position (after Sort), holding at
// most MaxErrors errors.
type ErrorList struct {
	List    []*Error
	Dropped int // errors beyond MaxErrors that were not kept (before the reading stopped)
}

// Full reports whether the list holds MaxErrors errors: reading should stop.
func (l *ErrorList) Full() bool { return len(l.List) >= MaxErrors }

// Add appends an error at pos, unless the list is full or the same error
// (same position and message) is already there.
func (l *ErrorList) Add(pos Pos, msg string) { l.addErr(pos, msg, nil) }

// addErr is Add of an error that comes from err.
func (l *ErrorList) addErr(pos Pos, msg string, err error) {
	for _, e := range l.List {
		if e.Pos == pos && e.Msg == msg {
			return
		}
	}
	if len(l.List) >= MaxErrors {
		l.Dropped++
		return
	}
	l.List = append(l.List, &Error{Pos: pos, Msg: msg, Err: err})
}

// Addf is Add with a format. Words among args (strings without a space:
// names and numbers from the input; the phrases of messages have spaces)
// are clipped (package clip), so that a name of megabytes is not
// printed whole.
func (l *ErrorList) Addf(pos Pos, format string, args ...any) {
	if l.Full() {
		l.Dropped++
		return
	}
	l.Add(pos, clip.Sprintf(format, args...))
}

// Len returns the number of kept errors.
func (l *ErrorList) Len() int { return len(l.List) }

// Sort sorts the errors by position (stable, so errors at one position keep
// the order in which they were found).
func (l *ErrorList) Sort() {
	sort.SliceStable(l.List, func(i, j int) bool { return l.List[i].Pos.Before(l.List[j].Pos) })
}

// Error formats the list one error per line.
func (l *ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	if l.Dropped > 0 {
		fmt.Fprintf(&b, "\n(and more errors: %d found before the reading stopped)", l.Dropped)
	}
	return b.String()
}

// Err returns l (sorted) as an error, or nil if l is empty.
func (l *ErrorList) Err() error {
	if l == nil || len(l.List) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// Unwrap returns the errors, so that errors.As finds an *Error.
func (l *ErrorList) Unwrap() []error {
	errs := make([]error, len(l.List))
	for i, e := range l.List {
		errs[i] = e
	}
	return errs
}

// Warning is a message about input that is accepted but probably not what
// the author meant (a parameter value that violates an assume, a macro
// redefined, ...).
type Warning struct {
	Pos Pos
	Msg string
}

func (w Warning) String() string {
	if w.Pos.IsValid() {
		return w.Pos.String() + ": warning: " + w.Msg
	}
	return "warning: " + w.Msg
}
