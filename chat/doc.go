// Package chat is the platform-neutral bot: commands, game flow, clocks and
// notifications. Adapters (chat/console, chat/discord, chat/matrix) turn
// their platform's events into a Request, call Bot.Respond (or Handle),
// and present the returned Reply in their own idiom. chat knows no SDK
// and no database: the model and the store's port are package gobot's.
//
// The files, by what they hold:
//
//   - ports.go: the ports chat needs besides gobot.Store (Notifier,
//     TimeSource, Renderer, Engines).
//   - message.go: Request, Reply and Message, what adapters exchange with
//     the bot; hint.go and clip.go: command tokens and clipping.
//   - command.go: the command declarations; argparse.go and args.go parse
//     arguments from them, userid.go checks user IDs, spelling.go finds
//     near names; errors.go is a refusal's type; action.go is the button
//     codec.
//   - router.go: Respond, the route of one command, and its transactions;
//     call.go: the Call a handler gets and the Result (reply and Effects)
//     it returns; outbox.go: replies stored with their effect; message
//     keys.
//   - challenge.go, play.go, view.go, settings.go, help.go, rating.go,
//     engine.go: the handlers, by topic; complete.go: autocomplete.
//   - present.go: replies built from games, errors turned into words,
//     images drawn after the commit; renderpool.go bounds the drawing.
//   - scheduler.go: clocks, reminders and timeouts (Run, Tick); claim.go:
//     their messages (and an engine's) claimed with an expiry, sent by
//     another process if their claimer dies; engine.go: engine turns.
//   - bot.go: the Bot (the router over a store, with the notifiers) and
//     core, what handlers and jobs read (configuration, declarations,
//     engines, renderer, time), which has no store.
package chat
