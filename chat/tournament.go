package chat

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Tournaments (docs/tournaments.md): `tournament new …` makes one in the
// room, players join, the organiser (its maker, or a room admin) starts
// it; each round's games are made by flow (flow/tournament.go) as any
// game is, and a round whose last game ended is followed by the next
// through the runner (the tournament job below), announced once.

// tournamentVerbs are the tournament command's verbs and the options
// each takes, in the order they are written: `tournament new "Winter
// Cup" mcmahon rounds=5`, `tournament result #12 B+`. On Discord each
// is a subcommand of /tournament with these options.
var tournamentVerbs = []protocol.Verb{
	{Name: "new", Summary: "make a tournament here; you organise it", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "name", Required: true, Help: "its name, like Winter Cup"}, Form: protocol.FormQuoted},
		{Arg: protocol.Arg{Name: "system", Kind: protocol.ArgChoice, Choices: []string{"mcmahon", "swiss", "roundrobin", "double-roundrobin", "elimination"},
			Help: "how rounds are paired (default: mcmahon)"}, Form: protocol.FormWord},
		{Arg: protocol.Arg{Name: "rounds", Help: "how many rounds (default: 5)"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxRounds},
		{Arg: protocol.Arg{Name: "size", Kind: protocol.ArgChoice, Choices: []string{"9", "13", "19"}, Help: "the board (default: 19)"}, Form: protocol.FormKey},
		{Arg: protocol.Arg{Name: "clock", Kind: protocol.ArgClock, Help: "3d a move (the default), or live: byoyomi:10m+5x30s fischer:5m+10s/10m"}, Form: protocol.FormKey},
		{Arg: protocol.Arg{Name: "max", Help: "at most this many players"}, Form: protocol.FormKey, Min: 2, Max: tournament.MaxPlayers},
		{Arg: protocol.Arg{Name: "options", Help: "more, like komi=6.5 handicap=mcmahon rated=yes closes=2d bar=4d floor=20k rules=japanese"}, Form: protocol.FormWords}}},
	{Name: "join", Summary: "join the tournament (an imported one: as the player you are)", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "as", Help: "in an imported tournament: the player you are, like Lee Ann"}, Form: protocol.FormQuoted}, whichTournament}},
	{Name: "leave", Summary: "leave the tournament", Params: []protocol.Param{whichTournament}},
	{Name: "start", Summary: "organisers: pair the first round and begin", Params: []protocol.Param{whichTournament}},
	{Name: "pair", Summary: "organisers: pair the next round now, once the last game of a round ended", Params: []protocol.Param{whichTournament}},
	{Name: "pairings", Summary: "a round's pairings, with each game", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "round", Help: "which round (default: the latest)"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxRounds}, whichTournament}},
	{Name: "standings", Summary: "the standings after a round", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "round", Help: "after which round (default: the latest)"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxRounds},
		{Arg: protocol.Arg{Name: "page", Help: "which page of a long table (default: 1)"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxPlayers},
		whichTournament}},
	{Name: "crosstable", Summary: "who played whom, and how it ended", Params: []protocol.Param{whichTournament}},
	{Name: "result", Summary: "organisers: set or correct a game's result", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "#game", Required: true, Help: "the tournament's game, like #12"}},
		{Arg: protocol.Arg{Name: "result", Kind: protocol.ArgChoice, Required: true, Choices: []string{"B+", "W+", "jigo", "void", "B+forfeit", "W+forfeit"},
			Help: "who won: void is a loss for both; a forfeit was not played"}, Form: protocol.FormWord},
		whichTournament}},
	{Name: "withdraw", Summary: "take a player out of the rounds to come (organisers, or the player)", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "@player", Required: true, Help: "the player"}}, whichTournament}},
	{Name: "bye", Summary: "organisers: give a player the next round's bye", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "@player", Help: "the player (default: you)"}}, whichTournament}},
	{Name: "schedule", Summary: "organisers: start a round at a set time (none: show the times set)", Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "round", Help: "which round"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxRounds},
		{Arg: protocol.Arg{Name: "at", Help: "when, in UTC: 2026-12-14T18:00 (or with an offset, 2026-12-14T19:00+01:00), in=2d from now, or off"}, Form: protocol.FormKey},
		whichTournament}},
	{Name: "end", Summary: "organisers: end the tournament, with its final standings", Params: []protocol.Param{whichTournament}},
	{Name: "export", Summary: "the tournament as an OpenGotha file", Params: []protocol.Param{whichTournament}},
	{Name: "h9", Summary: "the EGF results file (.h9), for rating submission", Params: []protocol.Param{whichTournament}},
	{Name: "import", Summary: "go on with an event begun in OpenGotha: attach its file", File: true, Params: []protocol.Param{
		{Arg: protocol.Arg{Name: "rounds", Help: "the rounds it is to have, if more than the file's"}, Form: protocol.FormKey, Min: 1, Max: tournament.MaxRounds}}},
}

// whichTournament names one of several tournaments in the room.
var whichTournament = protocol.Param{Arg: protocol.Arg{Name: "tournament", Help: "which one, like t3 (default: the one going on here)"}, Form: protocol.FormWord}

// tournamentLooks: the verbs that only look.
func tournamentLooks(a *protocol.Args) bool {
	switch a.Choice["action"] {
	case "pairings", "standings", "crosstable", "export", "h9":
		return true
	}
	return false
}

func cmdTournament(call *Call) (Result, error) {
	tx, r, a := call.Tx, call.Req, call.Args
	action := a.Choice["action"]
	words := a.Text
	if r.File != nil && action != "import" {
		return Result{}, say.Refusef("Only %s takes a file (an OpenGotha tournament file).", say.Cmd("tournament import"))
	}
	switch action {
	case "new":
		return tournamentNew(call)
	case "import":
		return tournamentImport(call)
	}
	id, words, err := tournamentRef(words)
	if err != nil {
		return Result{}, err
	}
	t, err := flow.FindTournament(tx, call.bot.where(r), id)
	if err != nil {
		return Result{}, say.TournamentRefused(err)
	}
	organiser := t.Organiser == r.User.ID || r.Admin
	needs := map[string]bool{"start": true, "pair": true, "result": true, "bye": true, "end": true, "schedule": len(words) > 0}
	if needs[action] || action == "withdraw" && a.User != "" && a.User != r.User.ID {
		if !organiser {
			return Result{}, say.TournamentRefused(flow.TournamentRefusal{Problem: flow.NotOrganiser, Tournament: t})
		}
	}
	if a.Game != 0 && tournamentLooks(a) { // "standings 2": a bare number is the round
		words = append([]string{strconv.FormatUint(uint64(a.Game), 10)}, words...)
	}
	b := call.bot
	var fx Effects
	var text string
	var draw *protocol.Drawing
	var widget *protocol.Widget
	switch action {
	case "join":
		late := t.State == gobot.Running
		var as string
		if len(words) > 0 {
			var qerr error
			if as, _, qerr = quotedName(strings.Join(words, " ")); qerr != nil {
				return Result{}, qerr
			}
		}
		if err = flow.JoinTournament(tx, t, r.User.ID, r.User.Name, as, r.Time); err == nil {
			err = b.rememberUser(tx, r.User, r.Time)
			text = say.TournamentJoined(t, r.User.ID, late)
			if as != "" {
				text = say.TournamentClaimed(t, r.User.ID)
			}
		}
	case "leave", "withdraw":
		u := r.User.ID
		if a.User != "" {
			u = a.User
		}
		if err = flow.LeaveTournament(tx, t, u); err == nil {
			text = say.TournamentLeft(t, u, r.User.ID)
		}
	case "bye":
		u := r.User.ID
		if a.User != "" {
			u = a.User
		}
		if err = flow.GiveBye(tx, t, u); err == nil {
			text = say.TournamentBye(t, u)
		}
	case "start", "pair":
		var o *flow.RoundStarted
		if action == "start" {
			o, err = flow.StartTournament(tx, b.cfg.Vacation, t, r.Time)
		} else {
			o, err = flow.PairRound(tx, b.cfg.Vacation, t, r.Time)
		}
		if err == nil {
			text, err = b.roundStarted(&fx, tx, o)
		}
	case "end":
		if err = flow.EndTournament(tx, t); err == nil {
			text, err = b.finalStandings(t)
		}
	case "result":
		text, err = tournamentResult(call, t, words)
	case "schedule":
		text, err = tournamentSchedule(call, t, words)
	case "pairings":
		text, err = pairingsText(t, words)
	case "standings":
		if text, draw, err = standingsText(t, words); err == nil {
			text, err = b.withTournamentPage(t, text)
			widget = b.tournamentWidgetOf(r, t) // in a Matrix room, the page becomes the room's widget too
		}
	case "export", "h9":
		return tournamentFile(t, action)
	case "crosstable":
		if text, err = noRoundYet(t); text == "" && err == nil {
			text, err = say.TournamentCrosstable(t.Pairing(), len(t.Played)-1)
		}
	}
	if err != nil {
		return Result{}, say.TournamentRefused(err)
	}
	if draw != nil {
		draw.Theme = playerIn(tx, r.User.ID).Theme
	}
	return reply(protocol.Reply{Title: say.TournamentName(t), Text: text, Draw: draw, Widget: widget}, fx)
}

// tournamentSchedule is `tournament schedule round=2 at=2026-12-14T18:00`
// (or in=2d, or at=off): the organiser's start time for a round to
// come; with no words, the times set.
func tournamentSchedule(call *Call, t *gobot.Tournament, words []string) (string, error) {
	now := call.Req.Time
	if len(words) == 0 {
		return say.TournamentSchedule(t), nil
	}
	round, at, set := 0, time.Time{}, false
	for _, w := range words {
		k, v, _ := strings.Cut(strings.ToLower(w), "=")
		switch {
		case k == "round":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > tournament.MaxRounds {
				return "", say.Refusef("round=%s: rounds are numbered from 1 to %d.", protocol.ClipArg(v), tournament.MaxRounds)
			}
			round = n
		case k == "at" && v == "off", k == "off" && v == "":
			at, set = time.Time{}, true
		case k == "at":
			when, err := parseStart(w[3:])
			if err != nil {
				return "", say.Refusef("at=%s: say when in UTC like at=2026-12-14T18:00, or with an offset like at=2026-12-14T19:00+01:00.", protocol.ClipArg(w[3:]))
			}
			at, set = when, true
		case k == "in":
			c, err := protocol.ParseClock(v)
			d := c.PerMove
			if err != nil || c.Kind != gobot.PerMove || d < time.Minute || d > 365*24*time.Hour {
				return "", say.Refusef("in=%s: say how long from now, like in=2d or in=6h (up to 365d).", protocol.ClipArg(v))
			}
			at, set = now.Add(d).Truncate(time.Minute), true
		default:
			return "", say.Refusef("%s is not something %s takes: it takes round=2 and at=2026-12-14T18:00, in=2d or at=off.", protocol.Echo(w), say.Cmd("tournament schedule"))
		}
	}
	if round == 0 || !set {
		return "", say.Refusef("Say which round and when, like %s (or in=2d, or at=off).", say.Cmd("tournament schedule round=2 at=2026-12-14T18:00"))
	}
	if err := flow.ScheduleRound(call.Tx, t, round, at, now); err != nil {
		return "", err
	}
	return say.RoundScheduled(t, round, at), nil
}

// parseStart reads a start time: 2026-12-14T18:00 (UTC), with seconds,
// or with a zone (Z, +01:00), strictly.
func parseStart(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z07:00"} {
		if t, err := time.Parse(layout, strings.ToUpper(s)); err == nil {
			return t.UTC(), nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, strings.ToUpper(s), time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("chat: not a start time")
}

// tournamentRef takes a tournament reference ("t3") off words.
func tournamentRef(words []string) (gobot.TournamentID, []string, error) {
	for i, w := range words {
		lw := strings.ToLower(w)
		if len(lw) > 1 && lw[0] == 't' && protocol.AllDigits(lw[1:]) {
			n, err := strconv.ParseUint(lw[1:], 10, 63)
			if err != nil || n == 0 {
				return 0, nil, say.Refusef("%s is no tournament number; tournaments are named like t3.", protocol.Echo(w))
			}
			return gobot.TournamentID(n), append(words[:i:i], words[i+1:]...), nil
		}
	}
	return 0, words, nil
}

// tournamentNew makes a tournament from `tournament new "Winter Cup"
// mcmahon rounds=5 size=19 komi=6.5 clock=3d handicap=none|mcmahon|cap=N
// rated=yes closes=2d max=32 bar=4d floor=20k`.
func tournamentNew(call *Call) (Result, error) {
	tx, r := call.Tx, call.Req
	t, err := parseTournament(call.Args.Text, r.Time)
	if err != nil {
		return Result{}, err
	}
	t.Room, t.Organiser, t.Community = r.Room, r.User.ID, communityOf(r)
	if err := flow.NewTournament(tx, t, r.Time); err != nil {
		return Result{}, say.Refusef("That tournament cannot be made: %s.", strings.TrimPrefix(err.Error(), "gobot: "))
	}
	return reply(protocol.Reply{Title: say.TournamentName(t), Text: say.TournamentMade(t)}, Effects{})
}

// systems are the pairing systems by the words that name them.
var systems = map[string]tournament.System{"mcmahon": tournament.McMahon, "swiss": tournament.Swiss,
	"roundrobin": tournament.RoundRobin, "round-robin": tournament.RoundRobin, "double-roundrobin": tournament.DoubleRoundRobin,
	"elimination": tournament.Elimination, "knockout": tournament.Elimination}

// parseTournament reads a new tournament's words.
func parseTournament(words []string, now time.Time) (*gobot.Tournament, error) {
	line := strings.Join(words, " ")
	name, rest, err := quotedName(line)
	if err != nil {
		return nil, err
	}
	t := &gobot.Tournament{Name: name, System: tournament.McMahon, Rounds: 5, Size: 19, Bar: tournament.DefaultBar, Floor: tournament.DefaultFloor,
		Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * 24 * time.Hour}}
	t.Rules = game.Rules{Komi: 6.5}
	if p, err := game.Preset("japanese"); err == nil {
		t.Rules = p
	}
	var opts []string // the game's options: size, rules, komi, clock
	for _, w := range strings.Fields(rest) {
		lw := strings.ToLower(w)
		if s, ok := systems[lw]; ok {
			t.System = s
			continue
		}
		k, v, ok := strings.Cut(lw, "=")
		if !ok {
			return nil, say.Refusef("%s is not a tournament option; options are like rounds=5 or clock=3d (the name goes in quotes).", protocol.Echo(w))
		}
		switch k {
		case "rounds":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > tournament.MaxRounds {
				return nil, say.Refusef("rounds=%s: a tournament has 1 to %d rounds.", protocol.ClipArg(v), tournament.MaxRounds)
			}
			t.Rounds = n
		case "max", "players":
			n, err := strconv.Atoi(v)
			if err != nil || n < 2 || n > tournament.MaxPlayers {
				return nil, say.Refusef("max=%s: a tournament takes 2 to %d players.", protocol.ClipArg(v), tournament.MaxPlayers)
			}
			t.MaxPlayers = n
		case "rated":
			b, ok := protocol.ParseBool(v)
			if !ok {
				return nil, say.Refusef("rated=%s: say rated=yes or rated=no.", protocol.ClipArg(v))
			}
			t.Rated = b
		case "handicap", "ha":
			switch {
			case v == "none" || v == "0" || v == "off":
				t.Handicap = gobot.HandicapPolicy{}
			case v == "mcmahon" || v == "on":
				t.Handicap = gobot.HandicapPolicy{Kind: gobot.McMahonHandicap}
			default:
				n, err := strconv.Atoi(strings.TrimPrefix(v, "cap"))
				if err != nil || n < 1 || n > game.MaxHandicap {
					return nil, say.Refusef("handicap=%s: say handicap=none, handicap=mcmahon or a cap like handicap=3.", protocol.ClipArg(v))
				}
				t.Handicap = gobot.HandicapPolicy{Kind: gobot.McMahonHandicap, Cap: n}
			}
		case "closes", "close", "registration":
			d, err := protocol.ParseClock(v)
			if err != nil || d.Kind != gobot.PerMove || d.PerMove <= 0 || d.PerMove > 90*24*time.Hour {
				return nil, say.Refusef("closes=%s: registration closes after a time like closes=2d or closes=6h (up to 90d).", protocol.ClipArg(v))
			}
			t.RegistrationCloses = now.Add(d.PerMove)
		case "bar", "floor":
			rk, err := game.ParseRank(v)
			if err != nil {
				return nil, say.Refusef("%s=%s: a rank like 4d or 20k.", k, protocol.ClipArg(v))
			}
			if k == "bar" {
				t.Bar = rk
			} else {
				t.Floor = rk
			}
		case "size", "board", "rules", "ruleset", "komi", "km", "clock", "time":
			opts = append(opts, w)
		default:
			return nil, say.Refusef("%s is not a tournament option; see %s.", protocol.Echo(k), say.Cmd("help tournament"))
		}
	}
	if err := eventGame("tournament", opts, &t.Size, &t.Rules, &t.Clock); err != nil {
		return nil, err
	}
	return t, nil
}

// eventGame applies an event's game options typed as words (size, rules,
// komi, clock: protocol.ParseOptions) to its settings; what names the
// event ("tournament", "ladder") in a refusal.
func eventGame(what string, opts []string, size *int, rules *game.Rules, clock *gobot.TimeControl) error {
	if len(opts) == 0 {
		return nil
	}
	o, err := protocol.ParseOptions(opts)
	if err != nil {
		return err
	}
	if o.Width != 0 {
		if o.Width != o.Height {
			return say.Refusef("A %s's board is square: size=9, 13 or 19.", what)
		}
		*size = o.Width
	}
	if o.Rules != nil {
		*rules = *o.Rules
	}
	if o.Komi != nil {
		rules.Komi = *o.Komi
	}
	if o.Clock != nil {
		*clock = *o.Clock
	}
	return nil
}

// quotedName takes a quoted name off the front of line: "Winter Cup"
// (straight or curly quotes), or the words before the first option.
func quotedName(line string) (name, rest string, err error) {
	if name, rest, err = splitName(line); err != nil {
		return "", "", err
	}
	return checkEventName(name, rest)
}

// splitName cuts line into a name, quoted or not, and the rest.
func splitName(line string) (name, rest string, err error) {
	line = strings.TrimSpace(line)
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		if s, ok := strings.CutPrefix(line, q[0]); ok {
			name, rest, ok := strings.Cut(s, q[1])
			if !ok {
				return "", "", say.Refusef("The name has no closing quote: write it like \"Winter Cup\".")
			}
			return strings.TrimSpace(name), rest, nil
		}
	}
	words := strings.Fields(line)
	i := 0
	for i < len(words) && !strings.Contains(words[i], "=") && systems[strings.ToLower(words[i])] == 0 {
		i++
	}
	return strings.Join(words[:i], " "), strings.Join(words[i:], " "), nil
}

// checkEventName refuses an empty or overlong name.
func checkEventName(name, rest string) (string, string, error) {
	switch {
	case name == "":
		return "", "", say.Refusef("A tournament needs a name: %s.", say.Cmd(`tournament new "Winter Cup" mcmahon rounds=5`))
	case len(name) > gobot.MaxEventName:
		return "", "", say.Refusef("A tournament's name is at most %d bytes; that one has %d.", gobot.MaxEventName, len(name))
	}
	return name, rest, nil
}

// roundStarted words a round paired (o) and queues each game's board to
// its players in the room; the text is the round's pairings.
func (b *core) roundStarted(fx *Effects, tx gobot.Tx, o *flow.RoundStarted) (string, error) {
	t := o.Tournament
	var ids []gobot.GameID
	for i, g := range o.Games {
		ids = append(ids, g.Match.ID)
		if err := b.mirrorEventGame(tx, t.Community, g.Match); err != nil { // mirror.go
			return "", err
		}
		l := &loaded{Loaded: g}
		rep := b.gameReplyAt(fx, tx, l, occasion{Room: t.Room, At: g.Match.Created}, say.TournamentGame(t, o.Round, t.Played[o.Round-1].Games[i].Table))
		rep.Mentions = g.Match.Players()
		fx.notify(protocol.Message{Room: t.Room, Reply: rep})
	}
	return say.RoundPaired(t, o.Round, ids), nil
}

// finalStandings is an ended tournament's last word: its standings.
func (b *core) finalStandings(t *gobot.Tournament) (string, error) {
	if len(t.Played) == 0 {
		return say.TournamentEnded(t, "(no round was played)"), nil
	}
	table, err := say.TournamentStandings(t.Pairing(), len(t.Played)-1, say.Paging{Command: "tournament standings"})
	if err != nil {
		return "", err
	}
	return say.TournamentEnded(t, table), nil
}

// results are the organiser's results by the words that give them.
var results = map[string]tournament.Result{"b+": tournament.BlackWins, "w+": tournament.WhiteWins, "jigo": tournament.Jigo, "draw": tournament.Jigo,
	"void": tournament.BothLose, "both-lose": tournament.BothLose, "both-win": tournament.BothWin}

// tournamentResult records the organiser's result for a game: `tournament
// result #12 B+` (or W+, jigo, void, B+forfeit, W+forfeit).
func tournamentResult(call *Call, t *gobot.Tournament, words []string) (string, error) {
	id := call.Args.Game
	if id == 0 || len(words) != 1 {
		return "", say.Refusef("Give the game and its result, like %s (or W+, jigo, void, B+forfeit).", say.Cmd("tournament result #12 B+"))
	}
	w := strings.ToLower(words[0])
	base, forfeit := strings.CutSuffix(w, "forfeit")
	res, ok := results[base]
	if !ok || forfeit && res != tournament.BlackWins && res != tournament.WhiteWins {
		return "", say.Refusef("%s is not a result: say B+, W+, jigo, void, B+forfeit or W+forfeit.", protocol.Echo(words[0]))
	}
	if err := flow.SetTournamentResult(call.Tx, t, id, res, forfeit, call.Req.Time); err != nil {
		return "", err
	}
	return say.TournamentResult(t, id, res, forfeit), nil
}

// roundArg is a round number among words (default: last, the latest).
func roundArg(t *gobot.Tournament, words []string, last int) (int, error) {
	if len(words) == 0 {
		return last, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(words[0]), "round="))
	if err != nil || n < 1 || n > len(t.Played) {
		if len(t.Played) == 0 {
			return 0, say.Refusef("%s has no round paired yet.", say.TournamentName(t))
		}
		return 0, say.Refusef("%s is not a round of %s: rounds 1 to %d are paired.", protocol.Echo(words[0]), say.TournamentName(t), len(t.Played))
	}
	return n, nil
}

// noRoundYet says that t has no round paired yet ("" when it has).
func noRoundYet(t *gobot.Tournament) (string, error) {
	if len(t.Played) > 0 {
		return "", nil
	}
	return fmt.Sprintf("%s has no round paired yet: %d %s registered.", say.TournamentName(t), len(t.Players), map[bool]string{true: "player", false: "players"}[len(t.Players) == 1]), nil
}

func pairingsText(t *gobot.Tournament, words []string) (string, error) {
	rd, err := roundArg(t, words, len(t.Played))
	if err != nil {
		return "", err
	}
	if text, err := noRoundYet(t); text != "" {
		return text, err
	}
	return say.RoundPaired(t, rd, t.Played[rd-1].Matches), nil
}

// standingsText is the standings table asked for, and on its first page
// the table's image (drawn after the commit).
func standingsText(t *gobot.Tournament, words []string) (string, *protocol.Drawing, error) {
	page := 1
	var rest []string
	for _, w := range words {
		if v, ok := strings.CutPrefix(strings.ToLower(w), "page="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "", nil, say.Refusef("page=%s: pages are numbered from 1.", protocol.ClipArg(v))
			}
			page = n
			continue
		}
		rest = append(rest, w)
	}
	if text, err := noRoundYet(t); text != "" {
		return text, nil, err
	}
	rd, err := roundArg(t, rest, len(t.Played))
	if err != nil {
		return "", nil, err
	}
	p := t.Pairing()
	text, err := say.TournamentStandings(p, rd-1, say.Paging{Page: page, Command: "tournament standings"})
	var draw *protocol.Drawing
	if page == 1 {
		draw = &protocol.Drawing{Standings: p, After: rd - 1, Title: fmt.Sprintf("%s after round %d", t.Name, rd)}
	}
	return text, draw, err
}

// TournamentLinker mints the link to a tournament's web page (package
// chat/web implements it beside Linker): its standings, every round's
// pairings with each game's board, and the crosstable. The page is the
// room's, as the tournament is: the link is posted in the tournament's
// room, and whoever holds it reads the page and watches its games until
// it expires.
type TournamentLinker interface {
	TournamentLink(id gobot.TournamentID) (url string, expires time.Time, err error)
}

// withTournamentPage adds the link to t's web page under text when the
// bot has a web board (text alone when it has none).
func (b *core) withTournamentPage(t *gobot.Tournament, text string) (string, error) {
	tl, ok := b.linker().(TournamentLinker)
	if !ok {
		return text, nil
	}
	return withPage(text, say.TournamentPage)(tl.TournamentLink(t.ID)) // ladder.go
}

// TournamentView reads tournament id for its web page, in one read.
// An unknown tournament is gobot.ErrNotFound.
func (b *Bot) TournamentView(ctx context.Context, id gobot.TournamentID) (*gobot.Tournament, error) {
	var t *gobot.Tournament
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		t, err = tx.Tournament(id)
		return err
	})
	return t, err
}

// RoomTournaments are the tournaments under way in room (registering or
// playing), for the Discord Activity opened there.
func (b *Bot) RoomTournaments(ctx context.Context, room gobot.RoomID) ([]*gobot.Tournament, error) {
	var ts []*gobot.Tournament
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		ts, err = tx.RoomTournaments(room, true)
		return err
	})
	return ts, err
}

func cmdTournaments(call *Call) (Result, error) {
	ts, err := flow.RoomTournaments(call.Tx, call.bot.where(call.Req))
	if err != nil {
		return Result{}, err
	}
	return reply(protocol.Reply{Title: "Tournaments", Text: say.TournamentLines(ts)}, Effects{})
}

// byTournamentDue lists the tournaments with timed work due.
// A round follows its last game at once: the runner wakes for it
// (onTime) as for a game's deadline.
var byTournamentDue = &dueIndex{
	name: "tournaments",
	list: func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error) {
		return dueTournaments(b, tx, now.Add(time.Nanosecond), 100)
	},
	onTime: true,
	upTo:   dueTournaments,
}

func dueTournaments(b *core, tx gobot.Tx, before time.Time, limit int) ([]dueItem, error) {
	due, err := tx.DueTournaments(before, limit)
	items := make([]dueItem, 0, len(due))
	for _, t := range due {
		items = append(items, dueItem{Tournament: t.ID, platform: t.Room.Platform(), At: t.Due})
	}
	return items, err
}

// dueAt takes every item its index lists (a tournament, a ladder): it is
// due once its time has come.
func dueAt(b *core, item dueItem, now time.Time) (mine, due bool) {
	return true, !now.Before(item.At)
}

// runTournament does a tournament's due work (flow.TournamentDue): the
// next round paired and its games begun, or the end and the final
// standings, announced in its room once.
func runTournament(c *JobCall) (Done, error) {
	b, tx, t := c.bot, c.Tx, c.Tournament
	rd := len(t.Played)
	o, err := flow.TournamentDue(tx, b.cfg.Vacation, t, c.Now)
	var refused flow.TournamentRefusal
	if errors.As(err, &refused) {
		// The next round cannot be paired by itself (players of an
		// imported tournament not here yet, an elimination game without
		// a winner): the room is told once, and the organiser's
		// `tournament pair` goes on when it can.
		stored, rerr := tx.Tournament(t.ID)
		if rerr != nil {
			return Done{}, rerr
		}
		stored.Due = time.Time{}
		if err := tx.PutTournament(stored); err != nil {
			return Done{}, err
		}
		var fx Effects
		fx.notify(protocol.Message{Room: t.Room, Reply: protocol.Reply{Title: say.TournamentName(t), Text: say.TournamentRefused(err).Error()}})
		return done("tournament waits", fmt.Sprintf("tournament %d after round %d waits", t.ID, rd), fx)
	}
	if err != nil || o == nil {
		return Done{}, err
	}
	var fx Effects
	var text string
	if o.Ended {
		if text, err = b.finalStandings(t); err != nil {
			return Done{}, err
		}
	} else if text, err = b.roundStarted(&fx, tx, o); err != nil {
		return Done{}, err
	}
	// The round's announcement first, then each game's board; the final
	// standings come with their table's image.
	head := protocol.Reply{Title: say.TournamentName(t), Text: text}
	if o.Ended && len(t.Played) > 0 {
		head.Draw = &protocol.Drawing{Standings: t.Pairing(), After: len(t.Played) - 1, Title: t.Name + ": final standings"}
	}
	fx.Notices = append([]protocol.Message{{Room: t.Room, Reply: head}}, fx.Notices...)
	return done("tournament", fmt.Sprintf("tournament %d after round %d", t.ID, rd), fx)
}

// tournamentFile posts t as a file: OpenGotha's tournament XML (export),
// which OpenGotha 3.51 opens with the same players, games, results and
// parameters, or the EGF results file (h9) for rating submission.
func tournamentFile(t *gobot.Tournament, action string) (Result, error) {
	m := tournament.Meta{Name: t.Name, ShortName: fmt.Sprintf("gobot-t%d", t.ID), Size: t.Size, Komi: t.Rules.Komi, Internet: true, Begin: t.Created, End: t.Created}
	m.Absent = t.SitsOut
	if len(t.Played) > 0 {
		m.End = t.Played[len(t.Played)-1].Start
	}
	var buf bytes.Buffer
	name, mime, write := fmt.Sprintf("gobot-t%d.xml", t.ID), "application/xml", tournament.WriteOpenGotha
	if action == "h9" {
		name, mime, write = fmt.Sprintf("gobot-t%d.h9", t.ID), "text/plain", tournament.WriteH9
	}
	if err := write(&buf, t.Pairing(), m); err != nil {
		return Result{}, say.Refusef("%s cannot be written as that file: %s.", say.TournamentName(t), strings.TrimSuffix(err.Error(), "."))
	}
	return Result{Reply: protocol.Reply{Title: say.TournamentName(t), Text: say.TournamentFile(t, action == "h9"),
		File: &protocol.File{Name: name, MIME: mime, Data: buf.Bytes()}}}, nil
}

// tournamentImport makes a tournament from the OpenGotha file attached
// (tournament.ReadOpenGotha): its players, rounds and results; the
// room's players then join as the players they are
// (`tournament join "Lee Ann"`), and the next round is paired as
// OpenGotha pairs it.
func tournamentImport(call *Call) (Result, error) {
	tx, r := call.Tx, call.Req
	if r.File == nil {
		return Result{}, say.Refusef("Attach the OpenGotha tournament file to %s (in the terminal: tournament import < cup.xml).", say.Cmd("tournament import"))
	}
	rounds := 0
	for _, w := range call.Args.Text {
		v, ok := strings.CutPrefix(strings.ToLower(w), "rounds=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 1 || n > tournament.MaxRounds {
			return Result{}, say.Refusef("%s: an import takes only rounds=N (1 to %d), the rounds the tournament is to have.", protocol.Echo(w), tournament.MaxRounds)
		}
		rounds = n
	}
	pt, m, err := tournament.ReadOpenGotha(bytes.NewReader(r.File.Data))
	if err != nil {
		return Result{}, say.Refusef("%s: %s. Nothing was imported.", protocol.Echo(r.File.Name), strings.TrimSuffix(err.Error(), "."))
	}
	t := &gobot.Tournament{Name: cmp.Or(m.Name, m.ShortName, r.File.Name), System: pt.System, Rounds: pt.Rounds, Size: cmp.Or(m.Size, 19),
		Bar: pt.Bar, Floor: pt.Floor, Room: r.Room, Organiser: r.User.ID, Community: communityOf(r),
		Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * 24 * time.Hour}}
	if p, err := game.Preset("japanese"); err == nil {
		t.Rules = p
	}
	t.Rules.Komi = m.Komi
	if m.Handicap == nil && pt.System == tournament.McMahon {
		t.Handicap = gobot.HandicapPolicy{Kind: gobot.McMahonHandicap}
	}
	if len(t.Name) > gobot.MaxEventName {
		t.Name = protocol.ClipBytes(t.Name, gobot.MaxEventName)
	}
	for _, p := range pt.Players {
		t.Players = append(t.Players, gobot.TournamentPlayer{Player: p})
	}
	for _, rd := range pt.Played {
		t.Played = append(t.Played, gobot.TournamentRound{Round: rd})
	}
	t.SitsOut = m.Absent // the players marked out of rounds to come: left out when those are paired
	if rounds > 0 {
		t.Rounds = max(rounds, len(t.Played))
	}
	if err := flow.ImportTournament(tx, t, r.Time); err != nil {
		return Result{}, say.Refusef("That tournament cannot be imported: %s.", strings.TrimPrefix(err.Error(), "gobot: "))
	}
	return reply(protocol.Reply{Title: say.TournamentName(t), Text: say.TournamentImported(t, m.Notes)}, Effects{})
}
