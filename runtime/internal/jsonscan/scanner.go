package jsonscan

import (
	"errors"
	"fmt"
)

// The limits of every reader of the scanner.
const (
	// MaxDepth is the most arrays and objects open at once.
	MaxDepth = 1000
	// MaxExponent bounds a non-zero number's decimal exponent.
	MaxExponent = 1_000_000_000
	// maxExponentDigits bounds the digits of a written exponent after its
	// leading zeros.
	maxExponentDigits = 10
)

// ErrInvalid is wrapped by every error about malformed JSON.
var ErrInvalid = errors.New("invalid JSON")

// Text is the input of a Scanner: the bytes of a JSON text, or the same as
// a string.
type Text interface{ ~string | ~[]byte }

// Scanner reads the tokens of one JSON text. Its reader moves it along:
// it skips white space, checks the byte at the scanner for the structure it
// expects (Peek, Next) and reads strings, numbers and literals, which the
// scanner checks. Enter and Leave count the arrays and objects open.
type Scanner[T Text] struct {
	in      T
	pos     int
	depth   int
	lenient bool
	// open is Skip's record of the arrays and objects open, one bit each
	// (set for an object), kept from one value to the next so that a
	// scanner allocates it once.
	open []uint64
}

// Reset makes the scanner read in from its start; a lenient scanner reads
// invalid UTF-8 in strings as it is and unpaired surrogate escapes as
// U+FFFD instead of failing on them.
func (s *Scanner[T]) Reset(in T, lenient bool) {
	s.in, s.pos, s.depth, s.lenient = in, 0, 0, lenient
}

// Input returns the text being read.
func (s *Scanner[T]) Input() T { return s.in }

// Pos returns the offset of the scanner in its text.
func (s *Scanner[T]) Pos() int { return s.pos }

// AtEnd reports whether the scanner read the whole text.
func (s *Scanner[T]) AtEnd() bool { return s.pos >= len(s.in) }

// Peek returns the byte at the scanner, or 0 at the end of the text.
func (s *Scanner[T]) Peek() byte {
	if s.pos < len(s.in) {
		return s.in[s.pos]
	}
	return 0
}

// Next moves past the byte at the scanner, which the reader checked with
// Peek.
func (s *Scanner[T]) Next() { s.pos++ }

// SkipSpace moves past JSON white space.
func (s *Scanner[T]) SkipSpace() {
	for s.pos < len(s.in) {
		switch s.in[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Enter counts an array or object opening, failing when MaxDepth are open
// already.
func (s *Scanner[T]) Enter() error {
	if s.depth++; s.depth > MaxDepth {
		return s.Errorf("nesting deeper than %d", MaxDepth)
	}
	return nil
}

// Leave counts an array or object closing.
func (s *Scanner[T]) Leave() { s.depth-- }

// Errorf returns an error wrapping ErrInvalid at the scanner's offset.
func (s *Scanner[T]) Errorf(format string, args ...any) error {
	return s.ErrorAt(s.pos, format, args...)
}

// ErrorAt returns an error wrapping ErrInvalid at offset pos.
func (s *Scanner[T]) ErrorAt(pos int, format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrInvalid, pos, fmt.Sprintf(format, args...))
}

// Literal moves past the literal true, false or null at the scanner.
func (s *Scanner[T]) Literal() error {
	var lit string
	switch s.Peek() {
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	case 'n':
		lit = "null"
	}
	if lit == "" || len(s.in)-s.pos < len(lit) || string(s.in[s.pos:s.pos+len(lit)]) != lit {
		if s.AtEnd() {
			return s.Errorf("unexpected end of input")
		}
		return s.Errorf("unexpected character %q", s.in[s.pos])
	}
	s.pos += len(lit)
	return nil
}
