// Package mcmt reads array-based systems written for MCMT (its user syntax,
// as in the Chandra-Toueg seed, and its older :keyword syntax, the .in
// files) and for Cubicle (.cub), into one model: system.System.
//
// Errors carry file:line:col and quote the text around the position, since
// MCMT files are often a single long line.
package mcmt

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"

	"ftmc/mcmt/system"
)

// Languages Parse accepts.
const (
	LangMCMT    = "mcmt"    // MCMT; the :keyword syntax is recognised by its content
	LangMCMT1   = "mcmt1"   // MCMT's :keyword syntax
	LangCubicle = "cubicle" // Cubicle
)

// Detect guesses the language of a file from its name and content.
func Detect(file string, src []byte) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".cub":
		return LangCubicle
	case ".in":
		return LangMCMT1
	}
	if looksLikeMCMT1(src) {
		return LangMCMT1
	}
	return LangMCMT
}

// looksLikeMCMT1 reports whether the first word of src is a :keyword.
func looksLikeMCMT1(src []byte) bool {
	s := bytes.TrimLeft(src, " \t\r\n")
	return len(s) > 1 && s[0] == ':' && isLetter(s[1])
}

// Parse reads a model in the given language ("mcmt", "mcmt1", "cubicle";
// empty: Detect). It never panics; errors are *Error values.
func Parse(file string, src []byte, lang string) (sys *system.System, err error) {
	return ParseContext(context.Background(), file, src, lang)
}

// ParseContext is Parse that stops when ctx is done, with an *Error whose
// Stopped method reports true.
func ParseContext(ctx context.Context, file string, src []byte, lang string) (sys *system.System, err error) {
	if lang == "" {
		lang = Detect(file, src)
	}
	if lang == LangMCMT && looksLikeMCMT1(src) {
		lang = LangMCMT1
	}
	syn := map[string]syntax{LangMCMT: synMCMT, LangMCMT1: synMCMT1, LangCubicle: synCubicle}[lang]
	lx := &lexer{file: file, src: src, syn: syn, ctx: ctx}
	p := &parser{lx: lx, sys: &system.System{Name: filepath.Base(file), Lang: lang, Property: "unsafe"},
		consts: map[string]system.Term{}}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			sys, err = nil, b.err
		}
	}()
	switch lang {
	case LangMCMT:
		p.parseMCMT()
	case LangMCMT1:
		p.parseMCMT1()
	case LangCubicle:
		p.parseCubicle()
	default:
		return nil, &Error{File: file, Msg: "unknown language " + lang + " (want mcmt, mcmt1 or cubicle)"}
	}
	p.checkSystem()
	return p.sys, nil
}
