package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// FormatVersion is the "format" field of every JSON report: the format's
// name and its major version. Fields may be added within a major version
// (readers ignore the fields they do not know); removing or changing the
// meaning of one makes a new major version, which older readers refuse.
const FormatVersion = formatName + "1"

// formatName is what FormatVersion begins with.
const formatName = "ftmc-report/"

// WriteJSON writes a report as one indented JSON object (what --json and
// --trail produce), its "format" field first and FormatVersion whatever
// r.Format says.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	out := *r
	out.Format = FormatVersion
	return enc.Encode(&out)
}

// WriteJSONList writes reports as one indented JSON array (ftmc sweep
// --json), each as WriteJSON writes it.
func WriteJSONList(w io.Writer, rs []*Report) error {
	out := make([]Report, len(rs))
	for i, r := range rs {
		out[i] = *r
		out[i].Format = FormatVersion
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ParseReport reads a report written by WriteJSON (for `ftmc trace`). Errors
// name the position in file: "file:line:col: what was expected". Fields it
// does not know are ignored (a later minor version added them); a report
// without "format" (written before it existed) is read as version 1, and
// one whose format is another major version is refused.
func ParseReport(file string, data []byte) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&rep); err != nil {
		var off int64 = -1
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		// Both offsets count the bytes read up to and including the
		// offending one.
		case errors.As(err, &se):
			off = se.Offset - 1
		case errors.As(err, &te):
			off = te.Offset - 1
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			off = int64(len(data))
		}
		msg := clipQuoted(err.Error())
		if off < 0 {
			return nil, fmt.Errorf("%s: expected an ftmc report (JSON): %s", file, msg)
		}
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("%s:%d:%d: expected an ftmc report (JSON): %s", file, line, col, msg)
	}
	if err := checkFormat(rep.Format); err != nil {
		line, col := lineCol(data, fieldOffset(data, "format"))
		return nil, fmt.Errorf("%s:%d:%d: %v", file, line, col, err)
	}
	if rep.Verdicts == nil {
		return nil, fmt.Errorf(`%s:1:1: expected an ftmc report with "verdicts"`, file)
	}
	for i := range rep.Verdicts {
		if c := rep.Verdicts[i].Counterexample; c != nil && c.Steps == nil {
			c.Steps = []Step{}
		}
	}
	return &rep, nil
}

// checkFormat accepts the "format" of a report this version reads: none
// (a report older than the field) or FormatVersion's major version, with or
// without a minor one ("ftmc-report/1", "ftmc-report/1.2").
func checkFormat(f string) error {
	if f == "" {
		return nil
	}
	q := clipQuoted(strconv.Quote(f))
	v, ok := strings.CutPrefix(f, formatName)
	if !ok {
		return fmt.Errorf("expected an ftmc report (format %q), found format %s", FormatVersion, q)
	}
	major, _, _ := strings.Cut(v, ".")
	if major != strings.TrimPrefix(FormatVersion, formatName) {
		return fmt.Errorf("report format %s is not one this ftmc reads (%s): a different version of ftmc wrote it", q, FormatVersion)
	}
	return nil
}

// fieldOffset is the offset in data of the value of the top-level field
// name of a JSON object, or 0.
func fieldOffset(data []byte, name string) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0
		}
		if t == name {
			off := dec.InputOffset()
			for off < int64(len(data)) && strings.IndexByte(" \t\r\n:", data[off]) >= 0 {
				off++
			}
			return off
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0
		}
	}
	return 0
}

// longQuote is text in quotes longer than 40 characters, in an error of
// the JSON decoder (an unknown field's name is quoted whole).
var longQuote = regexp.MustCompile(`"([^"]{40})[^"]+"`)

// clipQuoted shortens what an error message quotes to 40 characters and
// "...".
func clipQuoted(msg string) string {
	return longQuote.ReplaceAllString(msg, `"$1..."`)
}

func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
