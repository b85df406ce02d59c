package chat

import (
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// Command declares a command: its name, arguments and help text. The
// router, `help`, usage errors and the Discord command registration are
// all generated from this one declaration.
type Command struct {
	Name    string
	Aliases []string
	Summary string // one line
	Help    string // more detail for `help <command>`
	Args    []protocol.Arg
	// Attachment, when set, says the command takes an attached file
	// (Request.File) and what it is for ("an SGF file to review"):
	// Discord declares an attachment option for it, help says how each
	// platform attaches one, and the router refuses a file sent with a
	// command that has none.
	Attachment string
	// Admin commands are for room admins only (settings checks per key).
	Admin bool
	// Verbs, when set, make this a command with verbs (tournament new,
	// tournament join): its first argument is the choice of verb (the
	// verbs' names, verbArg), and each verb declares the options it
	// takes and how they are written (protocol.Verb). Help lists them;
	// on Discord the command is one of its own, a subcommand per verb.
	Verbs []protocol.Verb
	// private commands' replies are for the caller alone (plan): where
	// the platform cannot show a reply to the caller alone (a shared
	// Matrix room), the router refuses them and asks the adapter to
	// withdraw the message.
	private bool
	// view commands change nothing: they run in a read transaction, their
	// event marked just before. The others run in the write transaction
	// the router opens, in which it marks the event (router.go).
	view bool
	// looks, if set, says that a request of a command that changes
	// things only looks this time (settings with no key=value): it is
	// routed as a view.
	looks func(a *protocol.Args) bool
	// run is the handler: it gets the Call (the transaction, the request,
	// its arguments, what prepare returned) and returns its reply and
	// effects (router.go).
	run func(c *Call) (Result, error)
	// prepare, if set, runs before the transaction, for checks that take
	// slow work (asking an engine whether it plays a game). It writes
	// nothing and opens no transaction; what it returns reaches run as
	// Call.Prepared.
	prepare func(p *Prep) (any, error)
	// ask, if set, answers the first press of the command's button that
	// asks first (Request.AskFirst): the question and a button that
	// acts, for the presser alone. It runs in a read transaction and
	// changes nothing.
	ask func(c *Call) (Result, error)
}

// Decl is the part of c's declaration its arguments are parsed against.
func (c *Command) Decl() *protocol.Decl {
	return &protocol.Decl{Name: c.Name, Args: c.Args, Verbs: c.Verbs}
}

// Usage returns the command's synopsis: "play <point> [#game]".
func (c Command) Usage() string { return c.Decl().Usage() }

// Choice is an autocomplete suggestion.
type Choice struct {
	Name  string // shown
	Value string // sent back
}

var gameArg = protocol.Arg{Name: "#game", Kind: protocol.ArgGame, Help: "the game, like #7 (default: your game in this room)"}

// placementArg is where handicap stones go, for challenge and rengo.
var placementArg = protocol.Arg{Name: "placement", Kind: protocol.ArgChoice, Help: "where handicap stones go: fixed (the marked points), free (Black places them) or white-passes", Choices: []string{"fixed", "free", "white-passes"}}

// verbArg is the argument that takes a command's verb: a choice among
// verbs' names, the command's first.
func verbArg(verbs []protocol.Verb, required bool) protocol.Arg {
	return protocol.Arg{Name: "action", Kind: protocol.ArgChoice, Required: required, Choices: protocol.VerbNames(verbs), Help: "what to do"}
}

// Declared returns every command's declaration, as a Bot has them
// (Bot.Commands), for what needs them before there is a bot: Discord
// names the top-level command a command line is typed under.
func Declared() []Command { return commands() }

// commands declares every command once.
func commands() []Command {
	return []Command{
		{Name: "challenge", Aliases: []string{"invite", "new"}, Summary: "challenge a player to a game (no player: an open challenge)",
			Help: "Options in any order: a size (9, 13, 19, 13x9), a ruleset, black/white/random (your colour), komi=6.5, handicap=2 or handicap=auto (the ratings' difference rounded to whole ranks: 1 rank is no stones and komi 0.5, 2 to 9 that many stones; a handicap stone is worth more on a smaller board: about 6 ranks on 9x9, 3 on 13x13), a clock: clock=3d (a move, correspondence), clock=fischer:3d+1d/7d, or a live one to the second — clock=byoyomi:10m+5x30s (main time, then 5 periods of 30 s), canadian:10m+25/5m (25 stones in 5 minutes), fischer:5m+10s/10m, absolute:20m, simple:30s (docs/live.md) —, rated or unrated. Unset options come from the room's settings. Even games and handicap=auto games on 9x9, 13x13 and 19x19 are rated unless you say unrated.",
			Args: []protocol.Arg{{Name: "@player", Kind: protocol.ArgUser, Help: "who to play (empty: anyone here; in a joined community also @bob:example.org or discord:@carol)", Elsewhere: true},
				{Name: "size", Kind: protocol.ArgSize, Help: "board size: 9, 13, 19 or WxH", Choices: []string{"9", "13", "19"}},
				{Name: "rules", Kind: protocol.ArgRules, Help: "ruleset", Choices: game.PresetNames()},
				{Name: "color", Kind: protocol.ArgColor, Help: "your colour", Choices: []string{"black", "white", "random"}},
				{Name: "komi", Kind: protocol.ArgKomi, Help: "komi, like 6.5"},
				{Name: "handicap", Kind: protocol.ArgHandicap, Help: "handicap stones, 2 to 9, or auto (from both ratings)"},
				{Name: "clock", Kind: protocol.ArgClock, Help: "3d a move; live: byoyomi:10m+5x30s canadian:10m+25/5m fischer:5m+10s/10m absolute:20m simple:30s"},
				{Name: "rated", Kind: protocol.ArgChoice, Help: "rated (default for even games on 9, 13, 19) or unrated", Choices: []string{"rated", "unrated"}},
				placementArg,
				{Name: "engine", Kind: protocol.ArgEngine, Help: "play the computer: engine=gnugo (the game starts at once, unrated)"},
				{Name: "level", Kind: protocol.ArgLevel, Help: "the computer's strength, level=1 (weakest) to 10"},
				{Name: "vacation", Kind: protocol.ArgChoice, Help: "vacation=off: the players' vacations do not stop this game's clock (for tournaments)", Choices: []string{"on", "off"}},
				{Name: "vote", Kind: protocol.ArgVote, Help: "the room plays by vote: vote=10m is each turn's voting window (5s to 7d)"}},
			prepare: prepareChallenge, run: cmdChallenge},
		{Name: "rengo", Aliases: []string{"team"}, Summary: "propose a team game (rengo): rengo @alice @bob vs @carol @dave",
			Help: "Two teams of 1 to 4 players, you in one; the first team named takes the colour given (random by default). Every other player named answers accept or decline (one decline cancels it); the game begins when the last one accepts. Turns alternate between the teams and rotate within each (B1 W1 B2 W2 …): only the player whose turn it is plays or passes; any member resigns, asks or answers an undo, marks dead stones or accepts the count for the team. A player who runs out of time hands the turn to the next teammate; a team loses on time when all its players in a row have. Team games are unrated.",
			Args: []protocol.Arg{{Name: "teams", Kind: protocol.ArgTeams, Required: true, Repeat: true, Help: "the two teams, like @alice @bob vs @carol @dave (you in one)"},
				{Name: "size", Kind: protocol.ArgSize, Help: "board size: 9, 13, 19 or WxH", Choices: []string{"9", "13", "19"}},
				{Name: "rules", Kind: protocol.ArgRules, Help: "ruleset", Choices: game.PresetNames()},
				{Name: "color", Kind: protocol.ArgColor, Help: "the first team's colour", Choices: []string{"black", "white", "random"}},
				{Name: "komi", Kind: protocol.ArgKomi, Help: "komi, like 6.5"},
				{Name: "handicap", Kind: protocol.ArgHandicap, Help: "handicap stones, 2 to 9"},
				{Name: "clock", Kind: protocol.ArgClock, Help: "3d a turn; live (a team shares one): byoyomi:10m+5x30s fischer:5m+10s/10m absolute:20m simple:30s"},
				placementArg,
				{Name: "rated", Kind: protocol.ArgChoice, Help: "team games are unrated: unrated is taken, rated is refused", Choices: []string{"rated", "unrated"}}},
			run: cmdRengo},
		{Name: "accept", Summary: "accept a challenge", Args: []protocol.Arg{{Name: "#challenge", Kind: protocol.ArgChallenge, Help: "the challenge, like #3"}}, run: cmdAccept},
		{Name: "decline", Summary: "decline a challenge", Args: []protocol.Arg{{Name: "#challenge", Kind: protocol.ArgChallenge, Help: "the challenge, like #3"}}, run: cmdDecline},
		{Name: "cancel", Summary: "withdraw your challenge", Args: []protocol.Arg{{Name: "#challenge", Kind: protocol.ArgChallenge, Help: "the challenge, like #3"}}, run: cmdCancel},
		{Name: "play", Aliases: []string{"move", "p"}, Summary: "play a stone", Help: "Points are written like D4: a column letter (there is no I) and a row number counted from the bottom.",
			Args: []protocol.Arg{{Name: "point", Kind: protocol.ArgPoint, Required: true, Help: "where to play, like D4"}, gameArg}, run: cmdPlay},
		{Name: "vote", Summary: "in a room-vote game: vote for the room's next move (a point, pass or resign)",
			Help: "The first vote of a turn opens the window; vote again to change your vote (the last one counts). When the window closes the move with the most votes is played (a tie is drawn at random) and the tally announced. Resigning needs more than half of the votes from at least 3 voters (or everyone who voted in the room's last 5 turns, when fewer); resign alone short of that keeps the window open. Against a person the room's turns run on the game's clock (3 days a move unless set): a room that casts no vote in time loses on time. Everyone who has voted marks dead stones and accepts the count for the room. Start a vote game with `challenge engine=gnugo vote=10m` or `challenge @alice vote=1h`.",
			Args: []protocol.Arg{{Name: "point", Kind: protocol.ArgPoint, Help: "your move, like E5, or pass"},
				{Name: "resign", Kind: protocol.ArgChoice, Choices: []string{"resign"}, Help: "vote to resign (needs more than half of the votes, from at least 3 voters or all recent ones)"}, gameArg}, run: cmdVote},
		{Name: "pass", Summary: "pass your turn (two passes in a row end the game)", Args: []protocol.Arg{gameArg}, run: cmdPass},
		{Name: "resign", Summary: "resign the game", Args: []protocol.Arg{gameArg}, run: cmdResign, ask: askResign},
		{Name: "undo", Summary: "ask to take back the last move; the opponent answers undo or undo no (an engine never does)",
			Args: []protocol.Arg{{Name: "no", Kind: protocol.ArgChoice, Choices: []string{"yes", "no"}, Help: "answer an undo request",
				Synonyms: map[string]string{"ok": "yes", "accept": "yes", "refuse": "no", "deny": "no"}}, gameArg}, run: cmdUndo},
		{Name: "plan", private: true, Aliases: []string{"conditional"}, Summary: "on your opponent's turn, plan replies: if they play C3, you play C4 (private)",
			Help: "`plan C3 C4 D3 D4`: if they play C3, you play C4; then if they play D3, you play D4. Lines add up to a tree; a line that answers a move differently replaces that branch. Each move is checked on the board as it stands. When they play a move the plan covers, the reply is played at once; any other move drops the plan (you are told privately). `plan clear` drops it; `plans` shows it. Plans are private: on Matrix, send them to the bot in a direct message. At most 20 pairs a line, 100 replies a plan.",
			Args: []protocol.Arg{{Name: "clear", Kind: protocol.ArgChoice, Choices: []string{"clear"}, Help: "drop the whole plan"},
				{Name: "moves", Kind: protocol.ArgPoint, Repeat: true, Help: "their move, your reply, their move, your reply… like C3 C4 D3 D4"}, gameArg}, run: cmdPlan},
		{Name: "plans", view: true, private: true, Summary: "your plan (conditional moves) in a game, privately", Args: []protocol.Arg{gameArg}, run: cmdPlans},
		{Name: "board", view: true, Aliases: []string{"show", "b"}, Summary: "show the board", Args: []protocol.Arg{gameArg}, run: cmdBoard},
		{Name: "games", view: true, Aliases: []string{"list"}, Summary: "your active games and challenges: whose turn (in scoring, who marks or accepts), time left", run: cmdGames},
		{Name: "web", Aliases: []string{"link", "click"}, Summary: "your personal link to the game's live web board (click to play)",
			Help: "`web reset` ends your earlier links to the game and the boards opened with them (a link you shared or lost), and gives you a new one.",
			Args: []protocol.Arg{{Name: "reset", Kind: protocol.ArgChoice, Choices: []string{"reset"}, Help: "end your earlier links to this game and get a new one"}, gameArg}, run: cmdWeb, looks: webShown},
		{Name: "sgf", view: true, Summary: "the game record as an SGF file", Args: []protocol.Arg{gameArg}, run: cmdSGF},
		{Name: "replay", view: true, Aliases: []string{"gif"}, Summary: "an animated replay of the game", Args: []protocol.Arg{gameArg}, run: cmdReplay},
		{Name: "review", Summary: "review on a shared web board: review #12 (a finished game), review 19 (empty), review end",
			Help: "Start one on a finished game (review #12), an empty board (review 19), or an SGF file attached to the command (in the terminal: review < game.sgf). The one in control (who started it, until they hand it on) moves through the game, plays variations, marks points and comments on the board; everyone else on the board follows live, and may look around on their own and follow again. `reviews` gives each of you a personal link to the room's open reviews. `review end` closes it and posts its SGF (variations, marks and comments) here; a review unchanged for two days closes by itself. Reviews are deleted 30 days after they began unless kept (`review keep`). `review reset` ends your earlier links to the review and the boards opened with them (a link you shared or lost), and gives you a new one. #N is always a game and rN a review: review end r5 ends review r5, and review end #12 ends the open review of game #12.",
			Args: []protocol.Arg{{Name: "action", Kind: protocol.ArgChoice, Choices: []string{"end", "keep", "reset"}, Help: "end closes your review and posts its record; keep keeps it past 30 days; reset ends your earlier links to it"},
				{Name: "size", Kind: protocol.ArgSize, Help: "an empty board: 9, 13, 19 or WxH", Choices: []string{"9", "13", "19"}},
				{Name: "#game", Kind: protocol.ArgGame, Help: "the finished game to review, like #12 (with end, keep or reset: the game whose open review you mean)"},
				{Name: "review", Kind: protocol.ArgReview, Help: "with end, keep or reset: the review, like r5 (default: your one open review here)"}},
			Attachment: "an SGF file to review (at most 256 KB)", run: cmdReview},
		{Name: "tournament", Aliases: []string{"tourney"}, Summary: `run a tournament here: tournament new "Winter Cup" mcmahon rounds=5, join, start, standings`,
			Help:  `An organiser (who makes it, and room admins) makes one: tournament new "Winter Cup" mcmahon rounds=5 (or swiss, roundrobin, double-roundrobin, elimination) with size=19 rules=japanese komi=6.5 clock=3d handicap=none|mcmahon|3 (a cap) rated=yes closes=2d (registration closes, and the first round follows) max=32 bar=4d floor=20k. Players: tournament join, tournament leave. The organiser: tournament start, pair (the next round now, once the last game of a round ended), result #12 B+|W+|jigo|void|B+forfeit, withdraw @x, bye @x (the next round's bye), schedule round=2 at=2026-12-14T18:00 (or in=2d, or at=off: the round is paired at that time, once the round before it is over; schedule alone shows the times), end. Everyone: pairings [round], standings [round] [page=2] (with the web board on, and a link to the tournament's web page), crosstable, export (an OpenGotha file), h9 (the EGF results file). import with an OpenGotha file attached (rounds=N to extend it) goes on with an event begun elsewhere: each player joins as themselves, tournament join "Name". Each round's games are made by the bot and played as any game; when the last one ends, the next round is paired (at its start time, if one is set). Name one of several like t3.`,
			Verbs: tournamentVerbs,
			Args: []protocol.Arg{verbArg(tournamentVerbs, true),
				{Name: "@player", Kind: protocol.ArgUser, Help: "withdraw and bye: the player"},
				{Name: "#game", Kind: protocol.ArgGame, Help: "result: the game"},
				{Name: "words", Kind: protocol.ArgText, Repeat: true, Help: "the name in quotes and options (new), a round (pairings, standings), a result (result), t3 for one of several"}},
			Attachment: "import: an OpenGotha tournament file (.xml, at most 256 KB)", run: cmdTournament, looks: tournamentLooks},
		{Name: "tournaments", view: true, Summary: "the room's tournaments", run: cmdTournaments},
		{Name: "ladder", Summary: `a standing ladder here: ladder new "Room ladder" challenge=3, join, challenge @x, show`,
			Help: `Anyone makes one and organises it (with the room's admins): ladder new "Room ladder" size=19 rules=japanese komi=6.5 clock=3d challenge=3 (a player may challenge up to 3 places above) forfeit=3d (or off: how long a challenge may go unanswered) rated=yes. ladder join puts you on the bottom rung; ladder leave takes you off (those below move up one; your open challenge's game ends without result; the organiser may take off @x). ladder challenge @x makes the game at once with the ladder's settings, you with Black; the defender answers by playing their first move within the forfeit time, or forfeits (so does a challenger who never plays their first move). When the challenger wins they take the defender's place and those between move down one; otherwise nothing moves. One open challenge given and one received at a time. ladder (or ladder show page=2) shows it. The organiser's ladder close ends it: no more players or challenges (those open are played out). Name one of several like L2.`,
			Args: []protocol.Arg{{Name: "action", Kind: protocol.ArgChoice, Choices: ladderActions, Help: "what to do (nothing: show the ladder)"},
				{Name: "@player", Kind: protocol.ArgUser, Help: "challenge: the player you challenge; leave: the player the organiser takes off"},
				{Name: "words", Kind: protocol.ArgText, Repeat: true, Help: "the name in quotes and options (new), page=2 (show), L2 for one of several"}},
			run: cmdLadder, looks: ladderLooks},
		{Name: "ladders", view: true, Summary: "the room's ladders", run: cmdLadders},
		{Name: "reviews", view: true, Summary: "the room's open reviews, with your links to follow them", run: cmdReviews},
		{Name: "dead", Aliases: []string{"alive", "mark"}, Summary: "in scoring: toggle the stones at these points dead or alive",
			Args: []protocol.Arg{{Name: "point", Kind: protocol.ArgPoint, Required: true, Repeat: true, Help: "a stone of the string, like D4"}, gameArg}, run: cmdDead},
		{Name: "done", Aliases: []string{"accept-score", "agree"}, Summary: "in scoring: accept the marked dead stones and the count", Args: []protocol.Arg{gameArg}, run: cmdDone},
		{Name: "pause", Summary: "live games: ask to stop both clocks; the other player's pause accepts (10 minutes a game)",
			Help: "Both clocks stop once the other player accepts, with `pause` or the button; `resume` by either player restarts them, and when the game's 10 minutes of pause are spent they restart by themselves. Moves wait while the game is paused. Correspondence games have vacations instead.",
			Args: []protocol.Arg{gameArg}, run: cmdPause},
		{Name: "resume", Summary: "restart a paused live game's clocks; in scoring: go back to playing",
			Help: "In scoring, the opponent of whoever passed last moves next.", Args: []protocol.Arg{gameArg}, run: cmdResume},
		{Name: "rating", view: true, Aliases: []string{"rank", "elo"}, Summary: "a player's rating and rank in this community, with the last results",
			Help: "Shows the rating ± 2·RD (the 95% range), the rank (with ? while RD is above 110), rated games, wins and losses, and the last five results. Ratings are per community: a Discord server, a Matrix room, the terminal, or the community an operator joined some of them into. A game is rated when both players are human, the board is 9x9, 13x13 or 19x19, it was rated when challenged, and it ends by score, resignation or time (on time only once both players have moved; not aborted). Before your first rated game, `settings rank=5k` states a starting rank.",
			Args: []protocol.Arg{{Name: "@player", Kind: protocol.ArgUser, Help: "whose rating (default: yours)"}}, run: cmdRating},
		{Name: "top", view: true, Aliases: []string{"leaderboard"}, Summary: "this community's leaderboard",
			Help: "A table of the players with rated games here, with rating, ± (2·RD), rank and games, listed by rating − 2·RD (the rating each has reached with 95% confidence, so a player with few games ranks lower until the rating settles); at most 20 rows.", run: cmdTop},
		{Name: "engines", view: true, Aliases: []string{"bots", "computer"}, Summary: "the computer opponents on offer, with levels and board sizes", run: cmdEngines},
		{Name: "rules", view: true, Summary: "explain a ruleset in plain words", Args: []protocol.Arg{{Name: "preset", Kind: protocol.ArgRules, Repeat: true, Choices: game.PresetNames(), Help: "a ruleset, or options like ko=simple scoring=area (alone, they change the room's ruleset)"}}, run: cmdRules},
		{Name: "settings", Aliases: []string{"set", "config"}, Summary: "your settings (notify, theme, rank) or, for admins, the room's (rules, size, clock, engines…)",
			Help: "`settings` shows them. Yours: notify=mention|dm|off, notify_on=game|discord|matrix|both (with linked accounts: where you are told of your turn and reminded; docs/identity.md), theme=wood|dark, confirm=touch|always|never (the web board asks you to confirm a tap before it plays: on a phone or a narrow window, always, or never), rank=5k, rank=10 kyu or rank=3 dan (your starting rank here, before your first rated game). The room's (admins): room rules=japanese size=19 komi=6.5 clock=3d threads=on engines=on|off (games against the computer) live_images=every|last|off (a live game's board image in the room: after each move, with the final position and each 20th move (the default), or never); on Matrix, widget=on adds each new game's board to the room as a widget.",
			Args: []protocol.Arg{{Name: "key=value", Kind: protocol.ArgText, Repeat: true}}, run: cmdSettings, looks: settingsOnlyShown},
		{Name: "vacation", Aliases: []string{"holiday"}, Summary: "your vacation days; vacation on stops your games' clocks, vacation off restarts them",
			Help: "A vacation stops the clocks of your games against people, except team games (your turns pass at once to a teammate who is not away) and games challenged with vacation=off; your opponents are told, and moves can still be played. When it ends (vacation off, or when your days run out: you get a reminder a day before) each clock runs again with the time its player had left. Days are spent in real time. By default everyone starts with 14 days and earns one more a week from their first game, up to 30; `vacation` shows yours.",
			Args: []protocol.Arg{{Name: "on", Kind: protocol.ArgChoice, Choices: []string{"on", "off"}, Help: "on starts your vacation, off ends it (nothing: show your days left)",
				Synonyms: map[string]string{"start": "on", "end": "off", "stop": "off"}}}, run: cmdVacation, looks: vacationShown},
		{Name: "account", Summary: "your accounts on Discord, Matrix and the terminal as one player: account link, unlink",
			Help: "`account link` gives you a one-time code, as the command to send: `account link CODE`. Send it from your other account (on another platform) within 10 minutes, and both accounts are one player: `games` lists the games of both, and you can play each from either; your settings and vacation are one, and so is your rating in each community (where both accounts had one, the one with more rated games is kept). `account` shows the accounts linked; `account unlink` takes this account out, for future games (games already played stay as they are). Everything about accounts is private: on Matrix, send it to the bot in a direct message; a code typed in a shared room is voided. One account per platform; at most 3 codes waiting and 10 a day.",
			Args: []protocol.Arg{{Name: "action", Kind: protocol.ArgChoice, Choices: accountActions, Help: "link: get a code, or send one; unlink: take this account out (nothing: show your accounts)"},
				{Name: "code", Kind: protocol.ArgText, Help: "link: the code from your other account"}}, run: cmdAccount, looks: accountLooks},
		{Name: "abort", Summary: "end a game without result (room admins)", Admin: true, Args: []protocol.Arg{gameArg}, run: cmdAbort},
		{Name: "help", view: true, Aliases: []string{"h", "?", "commands"}, Summary: "list commands, or explain one", Args: []protocol.Arg{{Name: "command", Kind: protocol.ArgText}}, run: cmdHelp},
	}
}
