package chat

import "github.com/gobotgo/gobot/chat/protocol"

// errorf is a refusal: a mistake by the user, its text shown as is
// (protocol.Refusal).
func errorf(format string, a ...any) error { return protocol.Refusef(format, a...) }
