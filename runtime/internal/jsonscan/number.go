package jsonscan

// Number is a number token, by offsets in the text: its integer digits
// in[IntStart:IntEnd], its fraction digits in[FracStart:FracEnd] (empty
// without a fraction) and its written exponent Exp. The whole token is
// in[Start:End].
type Number struct {
	Start, End         int
	Neg                bool
	IntStart, IntEnd   int
	FracStart, FracEnd int
	Exp                int64
}

// Number moves past the number at the scanner, checking it: JSON's grammar,
// an exponent of at most 10 digits after its leading zeros, and a non-zero
// value's decimal exponent within ±MaxExponent.
func (s *Scanner[T]) Number() (Number, error) {
	in := s.in
	start := s.pos
	n, ds, de, neg, err := s.number()
	if err != nil {
		return n, err
	}
	for ds < de && in[ds] == '0' {
		ds++
	}
	if de-ds > maxExponentDigits {
		s.pos = start
		return n, s.Errorf("number exponent out of range")
	}
	for k := ds; k < de; k++ {
		n.Exp = 10*n.Exp + int64(in[k]-'0')
	}
	if neg {
		n.Exp = -n.Exp
	}
	// The value is 0.D × 10^e, D its significant digits.
	first := -1 // the first non-zero digit among the integer and fraction digits
	for k := n.IntStart; k < n.IntEnd; k++ {
		if in[k] != '0' {
			first = k - n.IntStart
			break
		}
	}
	if first < 0 {
		for k := n.FracStart; k < n.FracEnd; k++ {
			if in[k] != '0' {
				first = n.IntEnd - n.IntStart + k - n.FracStart
				break
			}
		}
	}
	if first >= 0 {
		if e := int64(n.IntEnd-n.IntStart) + n.Exp - int64(first); e > MaxExponent || e < -MaxExponent {
			s.pos = start
			return n, s.Errorf("number exponent out of range")
		}
	}
	return n, nil
}

// number moves past the number at the scanner, checking JSON's grammar
// only (not the exponent's range): it returns the number without its Exp,
// the offsets of its exponent's digits (in[ds:de], empty without an
// exponent) and whether the exponent is negative.
func (s *Scanner[T]) number() (n Number, ds, de int, neg bool, err error) {
	in := s.in
	i := s.pos
	n.Start = i
	if i < len(in) && in[i] == '-' {
		n.Neg = true
		i++
	}
	n.IntStart = i
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case i < len(in) && '1' <= in[i] && in[i] <= '9':
		i = digitsEnd(in, i)
	default:
		s.pos = i
		return n, 0, 0, false, s.Errorf("invalid number")
	}
	n.IntEnd, n.FracStart, n.FracEnd = i, i, i
	if i < len(in) && in[i] == '.' {
		n.FracStart = i + 1
		if n.FracEnd = digitsEnd(in, n.FracStart); n.FracEnd == n.FracStart {
			s.pos = n.FracEnd
			return n, 0, 0, false, s.Errorf("number has no digits after '.'")
		}
		i = n.FracEnd
	}
	ds, de = i, i
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			neg = in[i] == '-'
			i++
		}
		ds = i
		if i = digitsEnd(in, i); i == ds {
			s.pos = i
			return n, 0, 0, false, s.Errorf("number has no digits in its exponent")
		}
		de = i
	}
	s.pos, n.End = i, i
	return n, ds, de, neg, nil
}

// digitsEnd returns the offset of the first byte at or after i that is not
// a decimal digit.
func digitsEnd[T Text](in T, i int) int {
	for i < len(in) && '0' <= in[i] && in[i] <= '9' {
		i++
	}
	return i
}
