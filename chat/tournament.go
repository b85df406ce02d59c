package chat

import (
	"bytes"
	"cmp"
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

// tournamentActions are the tournament command's verbs.
var tournamentActions = []string{"new", "join", "leave", "start", "pair", "pairings", "standings", "crosstable", "result", "withdraw", "bye", "end", "export", "h9", "import"}

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
	t, err := flow.FindTournament(tx, r.Room, id)
	if err != nil {
		return Result{}, say.TournamentRefused(err)
	}
	organiser := t.Organiser == r.User.ID || r.Admin
	needs := map[string]bool{"start": true, "pair": true, "result": true, "bye": true, "end": true}
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
			text = b.roundStarted(&fx, tx, o)
		}
	case "end":
		if err = flow.EndTournament(tx, t); err == nil {
			text, err = b.finalStandings(t)
		}
	case "result":
		text, err = tournamentResult(call, t, words)
	case "pairings":
		text, err = pairingsText(t, words)
	case "standings":
		text, err = standingsText(t, words)
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
	return reply(protocol.Reply{Title: say.TournamentName(t), Text: text}, fx)
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
	if len(opts) > 0 {
		o, err := protocol.ParseOptions(opts)
		if err != nil {
			return nil, err
		}
		if o.Width != 0 {
			if o.Width != o.Height {
				return nil, say.Refusef("A tournament's board is square: size=9, 13 or 19.")
			}
			t.Size = o.Width
		}
		if o.Rules != nil {
			t.Rules = *o.Rules
		}
		if o.Komi != nil {
			t.Rules.Komi = *o.Komi
		}
		if o.Clock != nil {
			t.Clock = *o.Clock
		}
	}
	return t, nil
}

// quotedName takes a quoted name off the front of line: "Winter Cup"
// (straight or curly quotes), or the words before the first option.
func quotedName(line string) (name, rest string, err error) {
	line = strings.TrimSpace(line)
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		if s, ok := strings.CutPrefix(line, q[0]); ok {
			name, rest, ok := strings.Cut(s, q[1])
			if !ok {
				return "", "", say.Refusef("The name has no closing quote: write it like \"Winter Cup\".")
			}
			return checkEventName(strings.TrimSpace(name), rest)
		}
	}
	words := strings.Fields(line)
	i := 0
	for i < len(words) && !strings.Contains(words[i], "=") && systems[strings.ToLower(words[i])] == 0 {
		i++
	}
	return checkEventName(strings.Join(words[:i], " "), strings.Join(words[i:], " "))
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
func (b *core) roundStarted(fx *Effects, tx gobot.Tx, o *flow.RoundStarted) string {
	t := o.Tournament
	var ids []gobot.GameID
	for i, g := range o.Games {
		ids = append(ids, g.Match.ID)
		l := &loaded{Loaded: g}
		rep := b.gameReplyAt(fx, tx, l, occasion{Room: t.Room, At: g.Match.Created}, say.TournamentGame(t, o.Round, t.Played[o.Round-1].Games[i].Table))
		rep.Mentions = g.Match.Players()
		fx.notify(protocol.Message{Room: t.Room, Reply: rep})
	}
	return say.RoundPaired(t, o.Round, ids)
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

func standingsText(t *gobot.Tournament, words []string) (string, error) {
	page := 1
	var rest []string
	for _, w := range words {
		if v, ok := strings.CutPrefix(strings.ToLower(w), "page="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "", say.Refusef("page=%s: pages are numbered from 1.", protocol.ClipArg(v))
			}
			page = n
			continue
		}
		rest = append(rest, w)
	}
	if text, err := noRoundYet(t); text != "" {
		return text, err
	}
	rd, err := roundArg(t, rest, len(t.Played))
	if err != nil {
		return "", err
	}
	return say.TournamentStandings(t.Pairing(), rd-1, say.Paging{Page: page, Command: "tournament standings"})
}

func cmdTournaments(call *Call) (Result, error) {
	ts, err := call.Tx.RoomTournaments(call.Req.Room, false)
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

// tournamentDue takes every tournament the index lists.
func tournamentDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return true, !now.Before(item.At)
}

// runTournament does a tournament's due work (flow.TournamentDue): the
// next round paired and its games begun, or the end and the final
// standings, announced in its room once.
func runTournament(c *JobCall) (Done, error) {
	b, tx, t := c.bot, c.Tx, c.Tournament
	rd := len(t.Played)
	o, err := flow.TournamentDue(tx, b.cfg.Vacation, t, c.Now)
	if err != nil || o == nil {
		if err != nil {
			b.log.Warn("tournament: the next round", "tournament", t.ID, "err", err)
			return Done{}, nil // told again when it next falls due: by the organiser's pair
		}
		return Done{}, nil
	}
	var fx Effects
	var text string
	if o.Ended {
		if text, err = b.finalStandings(t); err != nil {
			return Done{}, err
		}
	} else {
		text = b.roundStarted(&fx, tx, o)
	}
	// The round's announcement first, then each game's board.
	fx.Notices = append([]protocol.Message{{Room: t.Room, Reply: protocol.Reply{Title: say.TournamentName(t), Text: text}}}, fx.Notices...)
	return done("tournament", fmt.Sprintf("tournament %d after round %d", t.ID, rd), fx)
}

// tournamentFile posts t as a file: OpenGotha's tournament XML (export),
// which OpenGotha 3.51 opens with the same players, games, results and
// parameters, or the EGF results file (h9) for rating submission.
func tournamentFile(t *gobot.Tournament, action string) (Result, error) {
	m := tournament.Meta{Name: t.Name, ShortName: fmt.Sprintf("gobot-t%d", t.ID), Size: t.Size, Komi: t.Rules.Komi, Internet: true, Begin: t.Created, End: t.Created}
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
	if rounds > 0 {
		t.Rounds = max(rounds, len(t.Played))
	}
	if err := flow.ImportTournament(tx, t, r.Time); err != nil {
		return Result{}, say.Refusef("That tournament cannot be imported: %s.", strings.TrimPrefix(err.Error(), "gobot: "))
	}
	return reply(protocol.Reply{Title: say.TournamentName(t), Text: say.TournamentImported(t, m.Notes)}, Effects{})
}
