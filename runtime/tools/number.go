package tools

import (
	"bytes"
	"strconv"
	"strings"
)

// number reads the JSON number at the scanner and writes its canonical
// form (see the package's canonical JSON rules in canonical.go).
func (p *canonParser) number(out *bytes.Buffer) error {
	n, err := p.s.Number()
	if err != nil {
		return err
	}
	in := p.s.Input()
	// value = 0.D × 10^e where D = the significant digits of the integer
	// and fraction digits; they are copied together only when both hold
	// some.
	intPart := bytes.TrimLeft(in[n.IntStart:n.IntEnd], "0")
	fracPart := bytes.TrimRight(in[n.FracStart:n.FracEnd], "0")
	e := int64(len(intPart)) + n.Exp
	var buf [64]byte
	var digits []byte
	switch {
	case len(fracPart) == 0:
		digits = bytes.TrimRight(intPart, "0")
	case len(intPart) == 0:
		digits = bytes.TrimLeft(fracPart, "0")
		e -= int64(len(fracPart) - len(digits))
	default:
		digits = append(append(buf[:0], intPart...), fracPart...)
	}
	if len(digits) == 0 {
		out.WriteByte('0')
		return nil
	}
	if n.Neg {
		out.WriteByte('-')
	}
	writeCanonicalDigits(out, digits, e)
	return nil
}

// writeCanonicalDigits writes 0.digits × 10^n.
func writeCanonicalDigits(out *bytes.Buffer, digits []byte, n int64) {
	k := int64(len(digits))
	switch {
	case k <= n && n <= 21:
		out.Write(digits)
		out.WriteString(strings.Repeat("0", int(n-k)))
	case 0 < n && n <= 21:
		out.Write(digits[:n])
		out.WriteByte('.')
		out.Write(digits[n:])
	case -6 < n && n <= 0:
		out.WriteString("0.")
		out.WriteString(strings.Repeat("0", int(-n)))
		out.Write(digits)
	default:
		out.WriteByte(digits[0])
		if k > 1 {
			out.WriteByte('.')
			out.Write(digits[1:])
		}
		out.WriteByte('e')
		if n-1 >= 0 {
			out.WriteByte('+')
		}
		out.WriteString(strconv.FormatInt(n-1, 10))
	}
}
