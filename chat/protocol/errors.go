package protocol

import "fmt"

// Refusal is a mistake by the user; its text is shown as is.
type Refusal struct{ msg string }

func (e Refusal) Error() string { return e.msg }

// Refusef returns a Refusal with the formatted text.
func Refusef(format string, a ...any) error { return Refusal{fmt.Sprintf(format, a...)} }
