// Package protocol is what the bot and its adapters say to each other
// and the grammar of what users type: a Request (a command, its words and
// named options) goes in, a Reply (text, fields, buttons, files, a board
// still to be drawn) comes out. Adapters (chat/console, chat/discord,
// chat/matrix) build the one and present the other; package chat routes
// the request to its handler and builds the reply. protocol knows no
// store, no handler and no platform.
//
// The files, by what they hold:
//
//   - message.go: User, Request, Reply (and its pending Drawing),
//     Message, the mention tokens (Mention, FormatText).
//   - hint.go: command tokens (Cmd) and how adapters show them;
//     clip.go: clipping what a reply repeats of the user's input (Echo,
//     ClipArg) and short lists.
//   - action.go: the button codec (Button, ParseButton).
//   - arg.go: the argument kinds and an argument's declaration (Arg);
//     argparse.go: Decl, a command's name and arguments, and ParseArgs,
//     which reads a request against it into Args; args.go: game options,
//     rulesets and clocks as typed (ParseOptions, ParseClock,
//     FormatClock, FormatDuration); verb.go: a command's verbs
//     (tournament new) and their options as data (Verb, Param), and
//     how a menu's options are written as typed words (Verb.Typed).
//   - spelling.go: the nearest name to a misspelt word; userid.go:
//     ValidateUser; errors.go: Refusal, a mistake by the user, whose
//     text is shown as is (Refusef).
package protocol
