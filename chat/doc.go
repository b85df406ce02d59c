// Package chat is the platform-neutral bot: the command surface and the
// timed jobs. Adapters (chat/console, chat/discord, chat/matrix, chat/web)
// turn their platform's events into a protocol.Request, call Bot.Respond
// (or Handle), and present the returned protocol.Reply in their own
// idiom. A handler resolves its arguments, does what changes a game as
// an operation of package flow (which returns an outcome or a typed
// refusal) in the one transaction the router opened, and words the
// outcome with chat/say. chat knows no SDK and no database: the model and
// the store's port are package gobot's.
//
// Beside it: flow (the game flow) and its subpackages flow/board (the
// one read of a game for every surface), flow/ratings, flow/review,
// flow/settings; chat/say and chat/guide (the words); chat/deliver
// (messages delivered once: notifiers, keys, claims, the outbox);
// chat/draw (a reply's images, after the commit); chat/turns (the engine
// turns running in this process).
//
// The files, by what they hold:
//
//   - ports.go: the ports chat needs besides gobot.Store (Notifier,
//     TimeSource, Renderer — chat/draw's —, Engines).
//   - Request, Reply and Message, what adapters exchange with the bot,
//     and the argument grammar (Arg, Args, ParseArgs, the refusal type)
//     are package chat/protocol's; errors.go: errorf, a refusal.
//   - command.go: the command declarations (each one's arguments a
//     protocol.Decl, parsed by protocol.ParseArgs).
//   - router.go: Respond, the route of one command, and its transactions;
//     call.go: the Call a handler gets and the Result (reply and Effects)
//     it returns. chat/deliver: replies stored with their effect; message
//     keys; the notifiers; the claimed messages.
//   - challenge.go, play.go, view.go, settings.go, help.go, rating.go,
//     engine.go: the handlers, by topic; complete.go: autocomplete;
//     rengo.go: team games (their challenge and its answers).
//   - vote.go: room-vote games (the vote command, windows closed by the
//     voting-window job, tallies; docs/vote.md).
//   - web.go: the `web` command and the Linker port; widget.go: a game's
//     board as a room widget (WidgetLinker, widget=on).
//   - plan.go: conditional moves (plan, plans), the plan followed
//     when the opponent moves (followPlan, from play.go); pause.go: a
//     live game's pause (pause, resume; the pause job).
//   - present.go: replies built from games (the board's fields, the
//     buttons), errors turned into words (say.Mistake, say.Failure),
//     images drawn after the commit by chat/draw.
//   - board.go: the surfaces' reads (Bot.Board, RoomBoards,
//     ChannelBoard, LinkGeneration), each one read transaction building
//     a flow/board View.
//   - runner.go: the timed jobs declared as data (jobs: a due index, which
//     items are theirs, a handler) and the runner that does them (Run,
//     Tick): fencing, claim, commit, send (the claimed messages, stored
//     by deliver.Claim, are sent by another process if their claimer dies).
//   - scheduler.go: clocks (the clock job: reminders and timeouts);
//     engine.go: engine turns (the engine-turn job, run one at a time
//     per game by chat/turns).
//   - vacation.go: vacations (the command, stopped clocks, the allowance,
//     the vacation job: the automatic end and its reminder).
//   - review.go: reviews (review, reviews; review end and keep; the review
//     job: the idle close and expiry; ReviewAct for the web board's
//     changes). The tree is package game's, control gobot.Review's.
//   - tournament.go: tournaments (tournament, tournaments; the tournament
//     job: the next round); ladder.go: ladders (ladder, ladders; the ladder
//     job: a challenge forfeited at its deadline; a ladder game's result
//     under its final message).
//   - bot.go: the Bot (the router and the runner over a store, with the
//     notifiers) and core, what handlers and jobs read (configuration, declarations,
//     engines, renderer, time), which has no store.
package chat
