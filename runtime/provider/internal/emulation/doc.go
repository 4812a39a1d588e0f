// Package emulation renders tool discovery for providers without native tool
// search: a discovery call travels as an ordinary function call of the
// discovery tool, and a discovery result as the text of that call's result,
// listing what was found. The discovered tools themselves are declared as
// ordinary tools by the request (package discovery decides which), from the
// next request on.
//
// The text and the argument encoding are deterministic, so an emulated
// history renders to the same bytes on every request.
package emulation
