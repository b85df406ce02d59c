package chat

import "fmt"

// userError is a mistake by the user; its text is shown as is.
type userError struct{ msg string }

func (e userError) Error() string { return e.msg }

func errorf(format string, a ...any) error { return userError{fmt.Sprintf(format, a...)} }
