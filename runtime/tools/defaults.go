package tools

// This file holds the hook through which a decoded value takes the defaults
// its design states. A schema's "default" is an annotation that validation
// does not apply, so generated types carry their defaults as code and a
// TypedCodec calls it once the value has been validated and decoded.

import "reflect"

// Defaulter is implemented by decoded values that fill in the design's
// defaults for the optional properties the JSON value omitted. Generated
// argument and result types implement it on their pointer when the design
// states a default anywhere in them.
type Defaulter interface {
	// SetDefaults sets every omitted optional property that has a default
	// to that default, at every depth. It leaves present properties as they
	// are and does nothing on a nil receiver.
	SetDefaults()
}

// defaulterType is the reflect type of Defaulter.
var defaulterType = reflect.TypeFor[Defaulter]()

// defaultsHook says how a TypedCodec[T] reaches the Defaulter of a decoded
// T: through its address, through the value itself (T is a pointer), or not
// at all.
type defaultsHook int

const (
	noDefaults    defaultsHook = iota
	addrDefaults               // *T implements Defaulter
	valueDefaults              // T implements Defaulter and is not an interface
)

// defaultsHookOf returns the hook of T.
func defaultsHookOf[T any]() defaultsHook {
	t := reflect.TypeFor[T]()
	switch {
	case t.Kind() != reflect.Interface && t.Implements(defaulterType):
		return valueDefaults
	case reflect.PointerTo(t).Implements(defaulterType):
		return addrDefaults
	}
	return noDefaults
}

// setDefaults applies the defaults of v through hook.
func setDefaults[T any](hook defaultsHook, v *T) {
	switch hook {
	case addrDefaults:
		any(v).(Defaulter).SetDefaults()
	case valueDefaults:
		any(*v).(Defaulter).SetDefaults()
	}
}
