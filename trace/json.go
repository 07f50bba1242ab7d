package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
)

// WriteJSON writes a report as one indented JSON object (what --json and
// --trail produce).
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ParseReport reads a report written by WriteJSON (for `ftmc trace`). Errors
// name the position in file: "file:line:col: what was expected".
func ParseReport(file string, data []byte) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
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
