// Package emulation renders tool discovery for providers without native tool
// search: a discovery call travels as an ordinary function call of the
// discovery tool, and a discovery result as the text of that call's result,
// listing what was found. By default the discovered tools themselves are
// declared as ordinary tools by the request (package discovery decides
// which), from the next request on.
//
// In conversation catalog mode (Rewrite) the declarations never change: the
// application's tools, the discovery tool and the dispatcher
// (discovery.Dispatcher). Discovered tools reach the model as catalog
// messages appended to the conversation, and their calls travel as
// dispatcher calls. Each catalog message is recorded in the Meta of the
// answer to the request it was appended to, so a stored history renders it
// again at the same place.
//
// The text and the argument encoding are deterministic, so an emulated
// history renders to the same bytes on every request.
package emulation
