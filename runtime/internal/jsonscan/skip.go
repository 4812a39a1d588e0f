package jsonscan

// Skip moves past the value at the scanner, checking it whole: its
// strings, numbers and literals as the scanner reads them, and the arrays
// and objects around them (keys, ':' and ',' where JSON's grammar puts
// them). It leaves the scanner after the value, before any white space.
//
// Skip is for a reader that passes over a value without building anything
// from it, so the limits on what readers build do not apply: a value may
// nest as deep as its text is long (Skip keeps its own record of the
// arrays and objects open, one bit each, rather than recursing or calling
// Enter, so MaxDepth does not bound it), and a number's exponent is
// checked for its grammar, not against MaxExponent. It reads in one pass;
// the record of what is open is kept by the scanner from one value to the
// next, so a scanner allocates for it only when a value nests deeper than
// any it skipped before.
func (s *Scanner[T]) Skip() error {
	in := s.in
	i := s.pos
	open := s.open // bit d: the array or object open at depth d is an object
	depth := uint(0)
	obj := false // the innermost open value is an object
	key := false // an object's key comes before the value at i
	var err error
	for {
		if key {
			if i >= len(in) || in[i] != '"' {
				return s.errorAt(i, "want an object key")
			}
			if end := plainEnd(in, i); end > 0 {
				i = end
			} else if i, err = s.slowString(i); err != nil {
				return err
			}
			if i = spaceEnd(in, i); i >= len(in) || in[i] != ':' {
				return s.errorAt(i, "want ':' after object key")
			}
			i = spaceEnd(in, i+1)
			key = false
		}
		// At a value.
		if i >= len(in) {
			return s.errorAt(i, "unexpected end of input")
		}
		switch c := in[i]; {
		case c == '{' || c == '[':
			i = spaceEnd(in, i+1)
			if i < len(in) && in[i] == c+2 { // ']' or '}'
				i++
				break
			}
			if depth>>6 == uint(len(open)) {
				open = append(open, 0)
				s.open = open
			}
			obj = c == '{'
			if key = obj; obj {
				open[depth>>6] |= 1 << (depth & 63)
			} else {
				open[depth>>6] &^= 1 << (depth & 63)
			}
			depth++
			continue
		case c == '"':
			if end := plainEnd(in, i); end > 0 {
				i = end
			} else if i, err = s.slowString(i); err != nil {
				return err
			}
		case c == '-' || '0' <= c && c <= '9':
			s.pos = i
			if _, _, _, _, err := s.number(); err != nil {
				return err
			}
			i = s.pos
		default:
			s.pos = i
			if err := s.Literal(); err != nil {
				return err
			}
			i = s.pos
		}
		// After a value: close what it ends, up to the next value.
		for {
			if depth == 0 {
				s.pos = i
				return nil
			}
			i = spaceEnd(in, i)
			if i >= len(in) {
				if obj {
					return s.errorAt(i, "unexpected end of input in object")
				}
				return s.errorAt(i, "unexpected end of input in array")
			}
			if c := in[i]; c == ',' {
				i = spaceEnd(in, i+1)
				key = obj
				break
			} else if obj && c == '}' || !obj && c == ']' {
				i++
				if depth--; depth > 0 {
					obj = open[(depth-1)>>6]&(1<<((depth-1)&63)) != 0
				}
				continue
			}
			if obj {
				return s.errorAt(i, "want ',' or '}' in object")
			}
			return s.errorAt(i, "want ',' or ']' in array")
		}
	}
}

// slowString moves past the string at in[i] with String, for a string
// that plainEnd does not end.
func (s *Scanner[T]) slowString(i int) (int, error) {
	s.pos = i
	_, err := s.String()
	return s.pos, err
}

// plainEnd returns the offset after the string at in[i] when it is
// printable ASCII without escapes, else 0.
func plainEnd[T Text](in T, i int) int {
	for i++; i < len(in) && plainByte[in[i]]; i++ {
	}
	if i < len(in) && in[i] == '"' {
		return i + 1
	}
	return 0
}

// plainByte is set for the bytes plainEnd passes over: printable ASCII
// but '"' and '\\'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// errorAt leaves the scanner at offset i with an error there.
func (s *Scanner[T]) errorAt(i int, msg string) error {
	s.pos = i
	return s.Errorf("%s", msg)
}

// spaceEnd returns the offset of the first byte at or after i that is not
// JSON white space.
func spaceEnd[T Text](in T, i int) int {
	for i < len(in) && in[i] <= ' ' && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r') {
		i++
	}
	return i
}
