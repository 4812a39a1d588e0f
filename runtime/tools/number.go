package tools

import (
	"bytes"
	"strconv"
	"strings"
)

// number parses a JSON number at p.pos and writes its canonical form (see
// the package's canonical JSON rules in canonical.go).
func (p *canonParser) number(out *bytes.Buffer) error {
	start := p.pos
	in := p.in
	i := p.pos
	neg := false
	if in[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case i < len(in) && '1' <= in[i] && in[i] <= '9':
		for i < len(in) && isDigit(in[i]) {
			i++
		}
	default:
		p.pos = i
		return p.errorf("invalid number")
	}
	intPart := in[intStart:i]
	var fracPart []byte
	if i < len(in) && in[i] == '.' {
		i++
		fs := i
		for i < len(in) && isDigit(in[i]) {
			i++
		}
		if i == fs {
			p.pos = i
			return p.errorf("number has no digits after '.'")
		}
		fracPart = in[fs:i]
	}
	exp := int64(0)
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		es := i
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		ds := i
		for i < len(in) && isDigit(in[i]) {
			i++
		}
		if i == ds {
			p.pos = i
			return p.errorf("number has no digits in its exponent")
		}
		digits := strings.TrimLeft(string(in[ds:i]), "0")
		if len(digits) > 10 {
			p.pos = start
			return p.errorf("number exponent out of range")
		}
		e, _ := strconv.ParseInt(string(in[es:ds])+"0"+digits, 10, 64)
		exp = e
	}
	p.pos = i

	// value = 0.D × 10^n where D = significant digits of intPart+fracPart.
	all := string(intPart) + string(fracPart)
	n := int64(len(intPart)) + exp
	trimmed := strings.TrimLeft(all, "0")
	n -= int64(len(all) - len(trimmed))
	digits := strings.TrimRight(trimmed, "0")
	if digits == "" {
		out.WriteByte('0')
		return nil
	}
	if n > maxCanonicalExponent || n < -maxCanonicalExponent {
		p.pos = start
		return p.errorf("number exponent out of range")
	}
	if neg {
		out.WriteByte('-')
	}
	writeCanonicalDigits(out, digits, n)
	return nil
}

// writeCanonicalDigits writes 0.digits × 10^n.
func writeCanonicalDigits(out *bytes.Buffer, digits string, n int64) {
	k := int64(len(digits))
	switch {
	case k <= n && n <= 21:
		out.WriteString(digits)
		out.WriteString(strings.Repeat("0", int(n-k)))
	case 0 < n && n <= 21:
		out.WriteString(digits[:n])
		out.WriteByte('.')
		out.WriteString(digits[n:])
	case -6 < n && n <= 0:
		out.WriteString("0.")
		out.WriteString(strings.Repeat("0", int(-n)))
		out.WriteString(digits)
	default:
		out.WriteByte(digits[0])
		if k > 1 {
			out.WriteByte('.')
			out.WriteString(digits[1:])
		}
		out.WriteByte('e')
		if n-1 >= 0 {
			out.WriteByte('+')
		}
		out.WriteString(strconv.FormatInt(n-1, 10))
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
