package jsonscan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// String moves past the string at the scanner (at its opening quote),
// checking it: no control character, only JSON's escapes and, unless the
// scanner is lenient, valid UTF-8 and surrogate escapes in pairs. plain
// reports a string without escapes, whose value is the text between its
// quotes; AppendString decodes any other.
func (s *Scanner[T]) String() (plain bool, err error) {
	s.pos++ // opening quote
	// Fast path: printable ASCII up to the closing quote.
	for i := s.pos; i < len(s.in); i++ {
		c := s.in[i]
		if c == '"' {
			s.pos = i + 1
			return true, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			s.pos = i
			break
		}
	}
	plain = true
	for {
		if s.pos >= len(s.in) {
			return false, s.Errorf("unterminated string")
		}
		c := s.in[s.pos]
		switch {
		case c == '"':
			s.pos++
			return plain, nil
		case c == '\\':
			plain = false
			if err := s.escape(); err != nil {
				return false, err
			}
		case c < 0x20:
			return false, s.Errorf("control character %q in string", c)
		case c < utf8.RuneSelf || s.lenient:
			s.pos++
		default:
			size := runeSize(s.in, s.pos)
			if size == 0 {
				return false, s.Errorf("invalid UTF-8 in string")
			}
			s.pos += size
		}
	}
}

// escape checks the escape at the scanner and moves past it.
func (s *Scanner[T]) escape() error {
	if s.pos+1 >= len(s.in) {
		return s.Errorf("unterminated escape")
	}
	switch e := s.in[s.pos+1]; e {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return nil
	case 'u':
	default:
		return s.Errorf("invalid escape \\%c", e)
	}
	u, ok := hex4(s.in, s.pos+2)
	if !ok {
		return s.badHex(s.pos + 2)
	}
	s.pos += 6
	if !utf16.IsSurrogate(u) {
		return nil
	}
	if u < 0xDC00 && s.pos+1 < len(s.in) && s.in[s.pos] == '\\' && s.in[s.pos+1] == 'u' {
		low, ok := hex4(s.in, s.pos+2)
		if !ok {
			return s.badHex(s.pos + 2)
		}
		if utf16.DecodeRune(u, low) != utf8.RuneError {
			s.pos += 6
			return nil
		}
	}
	if s.lenient {
		return nil // AppendString reads it as U+FFFD
	}
	return s.Errorf("unpaired surrogate escape %U", u)
}

// badHex is the error of a \u escape whose digits at i are not four
// hexadecimal digits.
func (s *Scanner[T]) badHex(i int) error {
	if i+4 > len(s.in) {
		return s.Errorf("short \\u escape")
	}
	return s.Errorf("invalid \\u escape %q", string(s.in[i:i+4]))
}

// AppendString appends to dst the value of quoted, a string token that a
// Scanner checked (quotes included). An unpaired surrogate escape, which
// only a lenient scanner lets through, is U+FFFD.
func AppendString[T Text](dst []byte, quoted T) []byte {
	end := len(quoted) - 1 // closing quote
	for i := 1; i < end; {
		c := quoted[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch e := quoted[i+1]; e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			u, _ := hex4(quoted, i+2)
			i += 6
			if utf16.IsSurrogate(u) {
				if i+1 < end && quoted[i] == '\\' && quoted[i+1] == 'u' {
					low, _ := hex4(quoted, i+2)
					if d := utf16.DecodeRune(u, low); d != utf8.RuneError {
						dst = utf8.AppendRune(dst, d)
						i += 6
						continue
					}
				}
				u = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, u)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, e)
		}
		i += 2
	}
	return dst
}

// hex4 decodes the four hexadecimal digits at in[i:], reporting whether
// there are four.
func hex4[T Text](in T, i int) (rune, bool) {
	if i+4 > len(in) {
		return 0, false
	}
	var v rune
	for k := i; k < i+4; k++ {
		c := in[k]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// runeSize returns the length of the valid UTF-8 encoding of a
// non-ASCII rune at in[i:], or 0 when it is not one (as utf8.DecodeRune
// judges it: no overlong form, no surrogate, nothing above U+10FFFF).
func runeSize[T Text](in T, i int) int {
	n := len(in) - i
	c0 := in[i]
	cont := func(k int, lo, hi byte) bool { return k < len(in) && lo <= in[k] && in[k] <= hi }
	switch {
	case c0 < 0xC2:
		return 0
	case c0 < 0xE0:
		if n >= 2 && cont(i+1, 0x80, 0xBF) {
			return 2
		}
	case c0 < 0xF0:
		lo, hi := byte(0x80), byte(0xBF)
		if c0 == 0xE0 {
			lo = 0xA0
		} else if c0 == 0xED {
			hi = 0x9F
		}
		if n >= 3 && cont(i+1, lo, hi) && cont(i+2, 0x80, 0xBF) {
			return 3
		}
	case c0 < 0xF5:
		lo, hi := byte(0x80), byte(0xBF)
		if c0 == 0xF0 {
			lo = 0x90
		} else if c0 == 0xF4 {
			hi = 0x8F
		}
		if n >= 4 && cont(i+1, lo, hi) && cont(i+2, 0x80, 0xBF) && cont(i+3, 0x80, 0xBF) {
			return 4
		}
	}
	return 0
}
