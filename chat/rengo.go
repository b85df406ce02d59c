package chat

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Team games (rengo): two teams of 1 to gobot.MaxTeam players. The
// challenger names both teams; every other named player accepts; the
// game begins with the last acceptance. Turns alternate between the
// teams and rotate within each (gobot.Teams.Turn); only the player whose
// turn it is plays or passes, any member resigns, asks or answers an
// undo, marks dead stones or accepts the count for the team. A player who
// runs out of time hands the turn to the next teammate; the team loses
// on time when all of them in a row have. Team games are unrated.

func cmdRengo(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	first, second := a.Teams[0], a.Teams[1]
	switch {
	case len(second) == 0:
		return Result{}, errorf("Name both teams with vs between them, like %s.", b.cmd("rengo @alice @bob vs @carol @dave"))
	case len(first) == 0:
		return Result{}, errorf("Name the first team before vs, like %s.", b.cmd("rengo @alice @bob vs @carol @dave"))
	case len(first) > gobot.MaxTeam || len(second) > gobot.MaxTeam:
		return Result{}, errorf("A team has at most %d players.", gobot.MaxTeam)
	}
	seen := map[gobot.UserID]bool{}
	for _, u := range append(slices.Clone(first), second...) {
		if seen[u] {
			return Result{}, say.Shortest(fmt.Sprintf("%s is named twice: each player plays in one team, once.", protocol.Mention(u)),
				"A player is named twice: each player plays in one team, once.")
		}
		if u.Platform() == EnginePlatform {
			return Result{}, errorf("Team games are between people; %s can't join one.", protocol.Mention(u))
		}
		seen[u] = true
	}
	if !seen[r.User.ID] {
		// Not the caller's raw ID in the example (a Discord number, a Matrix "@@name:server").
		return Result{}, errorf("You play in the game you propose: name yourself in one team, like %s when you are alice.", b.cmd("rengo @alice @bob vs @carol @dave"))
	}
	if len(seen) == 2 {
		return Result{}, errorf("That is a game between two players: %s.", b.cmd("challenge @player"))
	}
	if a.Choice["rated"] == "rated" {
		return Result{}, errorf("Team games are unrated: ratings are for one player against another. Leave out %s.", "`rated`")
	}
	if a.Rating.Auto {
		return Result{}, errorf("Team games are unrated, so handicap=auto has no ratings to go by; give a number, like handicap=2.")
	}
	room, err := tx.Room(r.Room)
	if err != nil && !errors.Is(err, gobot.ErrNotFound) {
		return Result{}, err
	}
	o := a.Options
	o.Placement = a.Choice["placement"]
	cfg, clock, color, err := b.challengeConfig(room, o)
	if err != nil {
		return Result{}, err
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	for _, m := range r.Mentions {
		if seen[m.ID] {
			if err := b.rememberUser(tx, m, r.Time); err != nil {
				return Result{}, err
			}
		}
	}
	c := &gobot.Challenge{Room: r.Room, From: r.User.ID, Config: cfg, Color: color, Clock: clock, Created: r.Time,
		Teams: &gobot.Teams{Black: first, White: second}}
	if err := tx.SkipGameNumbers(); err != nil {
		return Result{}, err
	}
	if err := tx.PutChallenge(c); err != nil { // numbers it
		return Result{}, err
	}
	// The first team named takes the colour given; "random" is drawn now
	// from the challenge's number, so the challenge says who plays what.
	swap := color == "white"
	if color == "random" {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%s|%s", c.ID, first[0], second[0])
		swap = h.Sum32()%2 == 1
	}
	if swap {
		c.Teams.Black, c.Teams.White = second, first
	}
	if err := tx.PutChallenge(c); err != nil {
		return Result{}, err
	}
	waiting := c.Teams.Members()
	waiting = slices.DeleteFunc(waiting, func(u gobot.UserID) bool { return u == c.From })
	drawn := map[string]string{"black": "", "white": "", "random": " (colours by lot)"}[color]
	text := fmt.Sprintf("%s proposes team game #%d: Black %s against White %s%s; %s.%s %s: each of you, answer %s or %s; the game begins when all have accepted.",
		protocol.Mention(c.From), c.ID, say.Mentions(c.Teams.Black), say.Mentions(c.Teams.White), drawn, say.Config(cfg, clock), say.ClockNote(clock),
		say.Mentions(waiting), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID)))
	rep := protocol.Reply{Title: fmt.Sprintf("Team challenge #%d", c.ID), Text: text, Mentions: waiting,
		Actions: []protocol.Action{
			{ID: protocol.Button{Command: "accept", Challenge: c.ID}.ID(), Label: "Accept", Style: protocol.Success},
			{ID: protocol.Button{Command: "decline", Challenge: c.ID}.ID(), Label: "Decline", Style: protocol.Danger},
		}}
	if note := aliasNote(a.Options.RulesPreset); note != "" {
		rep.Text += "\n" + strings.TrimSpace(note)
	}
	return Result{Reply: rep}, nil
}

// acceptTeam is `accept` of a team challenge (ok false: not one, and
// cmdAccept goes on as for two players).
func acceptTeam(call *Call) (res Result, ok bool, err error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	c, err := findChallenge(tx, b, r, a.Challenge, false)
	if err != nil || !c.ForTeams() {
		return Result{}, false, nil // cmdAccept says what is wrong
	}
	if c.Status != gobot.Pending {
		return Result{}, true, errorf("Challenge #%d is already %s.", c.ID, c.Status)
	}
	if c.From == r.User.ID {
		return Result{}, true, say.Shortest(fmt.Sprintf("You proposed team game #%d, so you have agreed; waiting for %s (or %s).", c.ID, say.Mentions(teamWaiting(c)), b.cmd(fmt.Sprintf("cancel #%d", c.ID))),
			fmt.Sprintf("You proposed team game #%d, so you have agreed; waiting for the others (or %s).", c.ID, b.cmd(fmt.Sprintf("cancel #%d", c.ID))))
	}
	if c.Teams.ColorOf(r.User.ID) == game.Empty {
		return Result{}, true, notInTeamChallenge(c)
	}
	if slices.Contains(c.Teams.Accepted, r.User.ID) {
		return Result{}, true, say.Shortest(fmt.Sprintf("You already accepted team game #%d; waiting for %s.", c.ID, say.Mentions(teamWaiting(c))),
			fmt.Sprintf("You already accepted team game #%d; waiting for the others.", c.ID))
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, true, err
	}
	c.Teams.Accepted = append(c.Teams.Accepted, r.User.ID)
	if left := teamWaiting(c); len(left) > 0 {
		if err := tx.PutChallenge(c); err != nil {
			return Result{}, true, err
		}
		return Result{Reply: protocol.Reply{Title: fmt.Sprintf("Team challenge #%d", c.ID), Mentions: left,
			Text: fmt.Sprintf("%s accepts team game #%d; waiting for %s (%s).", protocol.Mention(r.User.ID), c.ID, say.Mentions(left), b.cmd(fmt.Sprintf("accept #%d", c.ID)))}}, true, nil
	}
	// The last one: the game begins, under the challenge's number.
	g, err := game.New(c.Config)
	if err != nil {
		return Result{}, true, err
	}
	teams := c.Teams.Clone()
	teams.Accepted = nil
	match := &gobot.Match{ID: gobot.GameID(c.ID), Room: c.Room, Black: teams.Black[0], White: teams.White[0], Record: g.Record(),
		Clock: c.Clock, Challenge: c.ID, Created: r.Time, Updated: r.Time, Teams: teams}
	match.StartClocks() // a team shares its colour's clock
	flow.StartClock(match, g, r.Time)
	l := &loaded{Loaded: &flow.Loaded{Match: match, G: g}}
	if err := b.gameBegins(tx, l, r.Time); err != nil { // vacation.go: the week count
		return Result{}, true, err
	}
	l.note = b.passAwayTurns(tx, l)
	if err := tx.InsertMatch(match); err != nil {
		return Result{}, true, err
	}
	c.Status, c.Game, c.Answered = gobot.Accepted, match.ID, r.Time
	if err := tx.PutChallenge(c); err != nil {
		return Result{}, true, err
	}
	var fx Effects
	rep := b.gameReply(&fx, tx, l, r, fmt.Sprintf("Team game #%d begins: Black %s against White %s, %s, unrated. %s",
		match.ID, say.Names(namer(tx), teams.Black), say.Names(namer(tx), teams.White), say.Config(c.Config, c.Clock), turnOrder(teams, g.ToMove())))
	if room, err := tx.Room(c.Room); err == nil && room.Threads && !r.DM {
		rep.Thread = true
		rep.ThreadName = fmt.Sprintf("Game #%d", match.ID)
	}
	if err := b.autoWidget(tx, r, &rep, match); err != nil { // widget.go: widget=on rooms
		return Result{}, true, err
	}
	res, err = reply(rep, fx)
	return res, true, err
}

// declineTeam is `decline` of a team challenge: any named player's
// decline cancels it (ok false: not a team challenge).
func declineTeam(call *Call) (res Result, ok bool, err error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	c, err := findChallenge(tx, b, r, a.Challenge, false)
	if err != nil || !c.ForTeams() {
		return Result{}, false, nil
	}
	switch {
	case c.Status != gobot.Pending:
		return Result{}, true, errorf("Challenge #%d is already %s.", c.ID, c.Status)
	case c.From == r.User.ID:
		return Result{}, true, errorf("That is your own challenge; use %s to withdraw it.", b.cmd(fmt.Sprintf("cancel #%d", c.ID)))
	case c.Teams.ColorOf(r.User.ID) == game.Empty:
		return Result{}, true, notInTeamChallenge(c)
	}
	c.Status, c.Answered = gobot.Declined, r.Time
	if err := tx.PutChallenge(c); err != nil {
		return Result{}, true, err
	}
	others := slices.DeleteFunc(c.Teams.Members(), func(u gobot.UserID) bool { return u == r.User.ID })
	return Result{Reply: protocol.Reply{Text: fmt.Sprintf("%s declined team game #%d, so it is cancelled.", protocol.Mention(r.User.ID), c.ID), Mentions: others}}, true, nil
}

// teamWaiting are the players of team challenge c who have not accepted
// yet (the challenger agreed by proposing it).
func teamWaiting(c *gobot.Challenge) []gobot.UserID {
	return slices.DeleteFunc(c.Teams.Members(), func(u gobot.UserID) bool {
		return u == c.From || slices.Contains(c.Teams.Accepted, u)
	})
}

// turnOrder says how a team game's turns go, from the team that moves
// first (White, after fixed handicap stones). The teams alternate and
// each rotates through its own players (gobot.Teams.Turn), so the order
// repeats after twice the least common multiple of the teams' sizes:
// when that cycle is short (2 against 2: B1 W1 B2 W2) it is spelled out
// whole; a longer one (2 against 3 takes 12 turns) is said per team.
func turnOrder(t *gobot.Teams, first game.Color) string {
	a, b := t.Team(first), t.Team(first.Opponent())
	cycle := 2 * len(a) * len(b) / gcd(len(a), len(b))
	if cycle <= maxSpelledCycle {
		var order []string
		for i := range cycle / 2 {
			order = append(order, protocol.Mention(a[i%len(a)]), protocol.Mention(b[i%len(b)]))
		}
		return fmt.Sprintf("Turn order: %s, then round again.", strings.Join(order, ", "))
	}
	team := func(c game.Color) string {
		var s []string
		for _, u := range t.Team(c) {
			s = append(s, protocol.Mention(u))
		}
		return fmt.Sprintf("%s: %s in turn", c.Name(), strings.Join(s, ", "))
	}
	return fmt.Sprintf("Turn order: the teams alternate, %s first, and each takes its own players in turn (the order repeats after %d turns). %s; %s.",
		first.Name(), cycle, team(first), team(first.Opponent()))
}

// maxSpelledCycle is the longest turn cycle turnOrder spells out whole.
const maxSpelledCycle = 8

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// teamTurn refuses a move by a team member whose turn it is not.
func teamTurn(tx gobot.Tx, l *loaded, u gobot.UserID) error {
	next := l.Match.Side(l.G.ToMove()).ToMove()
	if next == u {
		return nil
	}
	return say.Shortest(fmt.Sprintf("It is %s's turn (%s) in game #%d.", protocol.Mention(next), say.TeamLabel(namer(tx), l.Match, l.G.ToMove()), l.Match.ID),
		fmt.Sprintf("It is %s's turn in game #%d.", protocol.Mention(next), l.Match.ID))
}

// notAPlayer refuses someone who does not play match.
func (b *core) notAPlayer(tx gobot.Tx, match *gobot.Match) error {
	watch := b.cmd(fmt.Sprintf("board #%d", match.ID))
	if room := match.Find(gobot.SideRoom); room.Kind == gobot.SideRoom { // vote.go
		return say.Shortest(fmt.Sprintf("In game #%d the room plays against %s by vote; only those who voted in it act for the room (you can watch with %s).", match.ID, protocol.Mention(room.Opponent().ToMove()), watch),
			fmt.Sprintf("In game #%d the room plays by vote; only those who voted in it act for the room (you can watch with %s).", match.ID, watch))
	}
	if !match.Has(gobot.SideTeam) {
		return errorf("Only %s and %s play game #%d; you can watch with %s.", protocol.Mention(match.Black), protocol.Mention(match.White), match.ID, watch)
	}
	return say.Shortest(fmt.Sprintf("You are not in team game #%d (%s; %s); you can watch with %s.", match.ID, say.TeamLabel(namer(tx), match, game.Black), say.TeamLabel(namer(tx), match, game.White), watch),
		fmt.Sprintf("You are not in team game #%d; you can watch with %s.", match.ID, watch))
}

// notInTeamChallenge refuses an answer to team challenge c from someone
// it does not name.
func notInTeamChallenge(c *gobot.Challenge) error {
	return say.Shortest(fmt.Sprintf("Team game #%d is for %s; you are not in it.", c.ID, say.Mentions(c.Teams.Members())),
		fmt.Sprintf("You are not one of the players named in team game #%d, so you can't answer it.", c.ID))
}

// teamTimeout handles a team game's deadline passing at now: the turn
// goes to the next player of the team to move (said in the room) unless
// every one of them has now timed out in a row; then handled is false
// and the team loses on time as a player would (runClock).
func (b *core) teamTimeout(tx gobot.Tx, l *loaded, now time.Time) (d Done, handled bool, err error) {
	match, c := l.Match, l.G.ToMove()
	if !match.Side(c).Rotates() || match.Clock.Live() {
		// A live game's team shares one clock: when it runs out, the
		// team loses on time, as one player would.
		return Done{}, false, nil
	}
	t := match.Teams
	// The run that loses is every player present: members on vacation
	// have no turns (passAwayTurns); with all away, every member.
	present, _ := teamPresence(tx, t.Team(c))
	if need := cmp.Or(len(present), len(t.Team(c))); t.Late[c]+1 >= need {
		return Done{}, false, nil
	}
	late := match.Side(c).ToMove()
	step := fmt.Sprintf("game %d deadline %d team timeout", match.ID, match.Deadline.UnixNano()) // the deadline that passed
	t.Late[c]++
	t.Skipped[c]++
	next := match.Side(c).ToMove()
	l.note = b.passAwayTurns(tx, l)        // the next one may be away
	match.SetClock(c, match.Clock.Start()) // the next player's turn starts afresh
	flow.StartClock(match, l.G, now)
	match.Updated = now
	if err := tx.PutMatch(match); err != nil {
		return Done{}, true, err
	}
	var fx Effects
	rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, fmt.Sprintf("%s ran out of time: the turn passes to %s (%s).", protocol.Mention(late), protocol.Mention(next), say.TeamLabel(namer(tx), match, c)))
	fx.notify(protocol.Message{Room: match.Room, Reply: rep})
	d, err = done("team timeout", step, fx)
	return d, true, err
}

// passAwayTurns passes a team game's turn on from players on vacation
// (vacation.go) to the next teammate who is not, at once: team games'
// clocks do not stop for a vacation, so the team plays on without its
// absent members. Unlike a timeout it is no step towards losing on
// time, and the clock runs on as it stands. A team whose players are
// all away keeps its turn, and that is said. It returns what to say (""
// when the player to move is present). Call it on the stored state:
// after a move is recorded in l.match.
func (b *core) passAwayTurns(tx gobot.Tx, l *loaded) string {
	m := l.Match
	if !m.Side(l.G.ToMove()).Rotates() || !m.Active() || l.G.Phase() != game.Playing {
		return ""
	}
	c := l.G.ToMove()
	team := m.Teams.Team(c)
	var away []gobot.UserID
	for range team {
		u := m.Side(c).ToMove()
		if !onVacation(tx, u) {
			break
		}
		away = append(away, u)
		m.Teams.Skipped[c]++
	}
	if len(away) == 0 {
		return ""
	}
	if len(away) == len(team) { // all away: the turn stays where it was
		m.Teams.Skipped[c] -= len(team)
		return fmt.Sprintf("Every %s player (%s) is on vacation: the turn stays with %s and %s's clock runs on; the first of them back plays.", c.Name(), say.Names(namer(tx), team), protocol.Mention(m.Side(c).ToMove()), c.Name())
	}
	m.Reminded = 0 // the reminders are the new player's to get
	var who []string
	for _, u := range away {
		who = append(who, protocol.Mention(u))
	}
	verb := "is"
	if len(who) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s on vacation: the turn passes to %s (%s).", say.AndList(who), verb, protocol.Mention(m.Side(c).ToMove()), say.TeamLabel(namer(tx), m, c))
}

// teamLostNote says, when a team game is lost on time, that the whole
// team timed out in a row.
func teamLostNote(tx gobot.Tx, match *gobot.Match, c game.Color) string {
	if !match.Side(c).Rotates() {
		return ""
	}
	present, away := teamPresence(tx, match.Teams.Team(c))
	if len(away) > 0 && len(present) > 0 {
		return fmt.Sprintf(" Every %s player not on vacation (%s) has run out of time in a row: %s loses on time.", c.Name(), say.Names(namer(tx), present), c.Name())
	}
	return fmt.Sprintf(" Every %s player (%s) has run out of time in a row: %s loses on time.", c.Name(), say.Names(namer(tx), match.Teams.Team(c)), c.Name())
}

// onVacation reports whether u is on vacation; a player whose record
// cannot be read counts as present (they keep their turns).
func onVacation(tx gobot.Tx, u gobot.UserID) bool {
	p, err := loadPlayer(tx, u)
	return err == nil && p.Vacation.On()
}

// teamPresence splits a team into its players who are not on vacation
// and those who are.
func teamPresence(tx gobot.Tx, team []gobot.UserID) (present, away []gobot.UserID) {
	for _, u := range team {
		if onVacation(tx, u) {
			away = append(away, u)
		} else {
			present = append(present, u)
		}
	}
	return present, away
}

// seatField is who plays colour c, for the board's header: the player
// (with rank), or in a team game the team, with whose turn it is.
func seatField(tx gobot.Tx, match *gobot.Match, g *game.Game, c game.Color) string {
	if !match.Side(c).Rotates() {
		return protocol.Mention(match.Side(c).ToMove()) + rankSuffix(match, c)
	}
	s := say.Names(namer(tx), match.Teams.Team(c))
	if g.Phase() == game.Playing && g.ToMove() == c {
		s += fmt.Sprintf(" · %s to play", displayName(tx, match.Side(c).ToMove()))
	}
	return s
}

// teamGamesLine begins `games`' line for a team game u plays as me.
func teamGamesLine(tx gobot.Tx, l *loaded, me game.Color) string {
	cfg := l.G.Config()
	return fmt.Sprintf("#%d team game, %s vs %s (%s, you are %s, move %d): ", l.Match.ID, say.Names(namer(tx), l.Match.Teams.Team(me)), say.Names(namer(tx), l.Match.Teams.Team(me.Opponent())),
		game.SizeString(cfg.Width, cfg.Height), me.Name(), l.G.MoveNumber())
}

// teamChallengeLine is `games`' line for a pending team challenge.
func teamChallengeLine(b *core, c *gobot.Challenge, u gobot.UserID) string {
	waiting := teamWaiting(c)
	if c.From == u || slices.Contains(c.Teams.Accepted, u) {
		return fmt.Sprintf("team challenge #%d: waiting for %s", c.ID, say.Mentions(waiting))
	}
	return fmt.Sprintf("team challenge #%d from %s: %s or %s", c.ID, protocol.Mention(c.From), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID)))
}
