// Package chat is the platform-neutral bot: commands, game flow, clocks and
// notifications. Adapters (chat/console, chat/discord, chat/matrix) turn
// their platform's events into a Request, call Bot.Handle, and present the
// returned Reply in their own idiom. chat knows no SDK and no database.
//
// The files, by what they hold:
//
//   - ids.go, model.go, ratings_model.go: the model (IDs, games,
//     challenges, players, rooms, ratings).
//   - store.go, ports.go: the ports chat needs (Store and Tx, State;
//     Notifier, Clock, Renderer); lease.go builds leases on State, with
//     terms that fence the writes made under them.
//   - message.go: Request, Reply and Message, what adapters exchange with
//     the bot; hint.go and clip.go: command tokens and clipping.
//   - command.go: the command declarations; argparse.go and args.go parse
//     arguments from them; action.go is the button codec.
//   - router.go: Handle, the route of one command, and its transactions;
//     outbox.go: replies stored with their effect; message keys.
//   - challenge.go, play.go, view.go, settings.go, help.go, rating.go,
//     engine.go: the handlers, by topic; complete.go: autocomplete.
//   - present.go: replies built from games, errors turned into words,
//     images drawn after the commit; renderpool.go bounds the drawing.
//   - scheduler.go: clocks, reminders and timeouts (Run, Tick); claim.go:
//     their messages (and an engine's) claimed with an expiry, sent by
//     another process if their claimer dies.
//   - bot.go: the Bot, its configuration and notifiers.
package chat
