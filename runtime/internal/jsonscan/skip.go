package jsonscan

// Skip moves past the value at the scanner, checking it whole: its
// strings, numbers and literals as the scanner reads them, and the arrays
// and objects around them (keys, ':' and ',' where JSON's grammar puts
// them). It leaves the scanner after the value, before any white space.
//
// Skip is for a reader that passes over a value without building anything
// from it, so the limits on what readers build do not apply: a value may
// nest as deep as its text is long (Skip keeps its own count of the arrays
// and objects open, one bit each, rather than recursing or calling Enter,
// so MaxDepth does not bound it), and a number's exponent is checked for
// its grammar, not against MaxExponent. It reads in one pass and allocates
// only for values nested more than 256 deep (one bit a level).
func (s *Scanner[T]) Skip() error {
	var st openStack
	for {
		// At a value.
		switch c := s.Peek(); {
		case s.AtEnd():
			return s.Errorf("unexpected end of input")
		case c == '{' || c == '[':
			s.Next()
			s.SkipSpace()
			if c == '[' {
				if s.Peek() == ']' {
					s.Next()
					break
				}
				st.push(false)
				continue
			}
			if s.Peek() == '}' {
				s.Next()
				break
			}
			st.push(true)
			if err := s.skipKey(); err != nil {
				return err
			}
			continue
		case c == '"':
			if _, err := s.String(); err != nil {
				return err
			}
		case c == '-' || '0' <= c && c <= '9':
			if _, _, _, _, err := s.number(); err != nil {
				return err
			}
		default:
			if err := s.Literal(); err != nil {
				return err
			}
		}
		// After a value: close what it ends, up to the next value.
		for next := false; !next; {
			if st.depth == 0 {
				return nil
			}
			s.SkipSpace()
			obj := st.top()
			switch c := s.Peek(); {
			case s.AtEnd():
				return s.Errorf("unexpected end of input in %s", kind(obj))
			case c == ',':
				s.Next()
				s.SkipSpace()
				if obj {
					if err := s.skipKey(); err != nil {
						return err
					}
				}
				next = true
			case obj && c == '}' || !obj && c == ']':
				s.Next()
				st.pop()
			case obj:
				return s.Errorf("want ',' or '}' in object")
			default:
				return s.Errorf("want ',' or ']' in array")
			}
		}
	}
}

// skipKey moves past an object key, its ':' and the white space up to its
// value.
func (s *Scanner[T]) skipKey() error {
	if s.Peek() != '"' {
		return s.Errorf("want an object key")
	}
	if _, err := s.String(); err != nil {
		return err
	}
	s.SkipSpace()
	if s.Peek() != ':' {
		return s.Errorf("want ':' after object key")
	}
	s.Next()
	s.SkipSpace()
	return nil
}

func kind(obj bool) string {
	if obj {
		return "object"
	}
	return "array"
}

// openStack is what Skip keeps of the arrays and objects open: one bit
// each, set for an object. The first 256 levels need no allocation.
type openStack struct {
	depth int
	first [4]uint64
	more  []uint64
}

func (st *openStack) push(obj bool) {
	w, b := st.depth/64, uint(st.depth%64)
	if w >= len(st.first) && w-len(st.first) == len(st.more) {
		st.more = append(st.more, 0)
	}
	word := st.word(w)
	if obj {
		*word |= 1 << b
	} else {
		*word &^= 1 << b
	}
	st.depth++
}

func (st *openStack) pop() { st.depth-- }

// top reports whether the innermost open value is an object.
func (st *openStack) top() bool {
	d := st.depth - 1
	return *st.word(d / 64)&(1<<uint(d%64)) != 0
}

func (st *openStack) word(w int) *uint64 {
	if w < len(st.first) {
		return &st.first[w]
	}
	return &st.more[w-len(st.first)]
}
