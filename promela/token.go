package promela

// Token is the kind of a lexical token. Operators are named by what they
// look like; keywords by their spelling. A few tokens (the LTL operators)
// are never produced by the scanner but by the parser, inside ltl blocks,
// and appear as operators of UnaryExpr and BinaryExpr.
type Token uint8

// The tokens.
const (
	ILLEGAL Token = iota
	EOF

	IDENT  // x
	INT    // 12, 'a'
	STRING // "text"

	// Operators and punctuation.
	ADD       // +
	SUB       // -
	MUL       // *
	QUO       // /
	REM       // %
	AND       // &
	OR        // |
	XOR       // ^
	TILDE     // ~
	SHL       // <<
	SHR       // >>
	LAND      // &&
	LOR       // ||
	NOT       // ! (negation; also send)
	SEND2     // !! (sorted send)
	QUEST     // ? (receive)
	QUEST2    // ?? (random receive)
	EQL       // ==
	NEQ       // !=
	LSS       // <
	LEQ       // <=
	GTR       // >
	GEQ       // >=
	ASSIGN    // =
	INC       // ++
	DEC       // --
	ARROW     // ->
	SEMI      // ;
	SEP       // ::
	COLON     // :
	DOTDOT    // ..
	DOT       // .
	COMMA     // ,
	AT        // @
	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	HASH      // # (preprocessor)
	HASHHASH  // ## (preprocessor)
	BACKSLASH // \ (only in LTL: /\ and \/)

	// LTL operators (made by the parser inside ltl { } blocks).
	ALWAYS     // [] always
	EVENTUALLY // <> eventually
	NEXT       // X next
	UNTIL      // U until stronguntil
	WEAKUNTIL  // W weakuntil
	RELEASE    // V release
	IMPLIES    // -> implies
	EQUIV      // <-> equivalent

	keywordBeg
	ACTIVE
	ASSERT
	ATOMIC
	BIT
	BOOL
	BREAK
	BYTE
	C_CODE
	C_DECL
	C_EXPR
	C_STATE
	C_TRACK
	D_PROCTYPE
	D_STEP
	DO
	CHAN
	ELSE
	EMPTY
	ENABLED
	EVAL
	FALSE
	FI
	FOR
	FULL
	GET_PRIORITY
	GOTO
	HIDDEN
	IF
	INIT
	INLINE
	INT_TYPE // int
	LEN
	LOCAL
	LTL
	MTYPE
	NEMPTY
	NEVER
	NFULL
	NOTRACE
	NP
	OD
	OF
	PC_VALUE
	PID
	PRINTF
	PRINTM
	PRIORITY
	PROCTYPE
	PROVIDED
	RETURN
	RUN
	SELECT
	SET_PRIORITY
	SHORT
	SHOW
	SKIP
	TIMEOUT
	TRACE
	TRUE
	TYPEDEF
	UNLESS
	UNSIGNED
	XR
	XS
	keywordEnd
)

var tokenNames = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "end of file",
	IDENT:   "identifier",
	INT:     "number",
	STRING:  "string",

	ADD:       "+",
	SUB:       "-",
	MUL:       "*",
	QUO:       "/",
	REM:       "%",
	AND:       "&",
	OR:        "|",
	XOR:       "^",
	TILDE:     "~",
	SHL:       "<<",
	SHR:       ">>",
	LAND:      "&&",
	LOR:       "||",
	NOT:       "!",
	SEND2:     "!!",
	QUEST:     "?",
	QUEST2:    "??",
	EQL:       "==",
	NEQ:       "!=",
	LSS:       "<",
	LEQ:       "<=",
	GTR:       ">",
	GEQ:       ">=",
	ASSIGN:    "=",
	INC:       "++",
	DEC:       "--",
	ARROW:     "->",
	SEMI:      ";",
	SEP:       "::",
	COLON:     ":",
	DOTDOT:    "..",
	DOT:       ".",
	COMMA:     ",",
	AT:        "@",
	LPAREN:    "(",
	RPAREN:    ")",
	LBRACK:    "[",
	RBRACK:    "]",
	LBRACE:    "{",
	RBRACE:    "}",
	HASH:      "#",
	HASHHASH:  "##",
	BACKSLASH: "\\",

	ALWAYS:     "[]",
	EVENTUALLY: "<>",
	NEXT:       "X",
	UNTIL:      "U",
	WEAKUNTIL:  "W",
	RELEASE:    "V",
	IMPLIES:    "->",
	EQUIV:      "<->",

	ACTIVE:       "active",
	ASSERT:       "assert",
	ATOMIC:       "atomic",
	BIT:          "bit",
	BOOL:         "bool",
	BREAK:        "break",
	BYTE:         "byte",
	C_CODE:       "c_code",
	C_DECL:       "c_decl",
	C_EXPR:       "c_expr",
	C_STATE:      "c_state",
	C_TRACK:      "c_track",
	D_PROCTYPE:   "D_proctype",
	D_STEP:       "d_step",
	DO:           "do",
	CHAN:         "chan",
	ELSE:         "else",
	EMPTY:        "empty",
	ENABLED:      "enabled",
	EVAL:         "eval",
	FALSE:        "false",
	FI:           "fi",
	FOR:          "for",
	FULL:         "full",
	GET_PRIORITY: "get_priority",
	GOTO:         "goto",
	HIDDEN:       "hidden",
	IF:           "if",
	INIT:         "init",
	INLINE:       "inline",
	INT_TYPE:     "int",
	LEN:          "len",
	LOCAL:        "local",
	LTL:          "ltl",
	MTYPE:        "mtype",
	NEMPTY:       "nempty",
	NEVER:        "never",
	NFULL:        "nfull",
	NOTRACE:      "notrace",
	NP:           "np_",
	OD:           "od",
	OF:           "of",
	PC_VALUE:     "pc_value",
	PID:          "pid",
	PRINTF:       "printf",
	PRINTM:       "printm",
	PRIORITY:     "priority",
	PROCTYPE:     "proctype",
	PROVIDED:     "provided",
	RETURN:       "return",
	RUN:          "run",
	SELECT:       "select",
	SET_PRIORITY: "set_priority",
	SHORT:        "short",
	SHOW:         "show",
	SKIP:         "skip",
	TIMEOUT:      "timeout",
	TRACE:        "trace",
	TRUE:         "true",
	TYPEDEF:      "typedef",
	UNLESS:       "unless",
	UNSIGNED:     "unsigned",
	XR:           "xr",
	XS:           "xs",
}

// String returns the token's spelling (for operators and keywords) or a
// description (for identifiers, numbers, strings).
func (t Token) String() string { return enumName(t, tokenNames[:], "token") }

// enumName is the name of v in names, or kind(v) for a value without one.
func enumName[T ~uint8](v T, names []string, kind string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return kind + "(" + itoa(int(v)) + ")"
}

// IsKeyword reports whether t is a Promela keyword.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// IsLTL reports whether t is a temporal or LTL-only Boolean operator.
func (t Token) IsLTL() bool { return ALWAYS <= t && t <= EQUIV }

// isTypeKeyword reports whether t names a basic type.
func (t Token) isTypeKeyword() bool {
	switch t {
	case BIT, BOOL, BYTE, SHORT, INT_TYPE, UNSIGNED, CHAN, MTYPE, PID:
		return true
	}
	return false
}

// keywords maps spellings to keyword tokens.
var keywords = func() map[string]Token {
	m := make(map[string]Token, int(keywordEnd-keywordBeg))
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		m[tokenNames[t]] = t
	}
	return m
}()

// ltlKeywords are the words that are operators inside ltl { } blocks only.
var ltlKeywords = map[string]Token{
	"U":           UNTIL,
	"V":           RELEASE,
	"W":           WEAKUNTIL,
	"X":           NEXT,
	"always":      ALWAYS,
	"eventually":  EVENTUALLY,
	"until":       UNTIL,
	"stronguntil": UNTIL,
	"weakuntil":   WEAKUNTIL,
	"release":     RELEASE,
	"next":        NEXT,
	"implies":     IMPLIES,
	"equivalent":  EQUIV,
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
