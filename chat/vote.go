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

// Room-vote games (docs/vote.md). The room's seat is gobot.VoteSeat;
// match.Vote holds the turn's ballots and its window. The first vote of
// a turn opens a window of match.Vote.Window; the window's end is the
// game's Deadline, so the runner (runner.go: the voting-window job) of
// whichever process comes first closes it, in one transaction that replays the
// game, plays the winning move and claims its announcement (claim.go):
// played once, announced once. Against a person the room's turn runs on
// the game's clock until its first vote (reminded in the room, lost on
// time by a room that casts no vote: runClock); against an engine it
// waits for the first vote. The opponent moves as in any game, under
// the game's clock.

// checkVoteChallenge refuses what a vote challenge cannot be: rated, in a
// direct conversation, without an opponent, with handicap=auto.
func (b *core) checkVoteChallenge(r *protocol.Request, a *protocol.Args) error {
	if a.Vote == 0 {
		return nil
	}
	switch {
	case r.DM:
		return errorf("A vote game is played by a room: challenge from the room whose members will vote.")
	case a.User == "" && a.Engine == "":
		return errorf("A vote game needs the room's opponent: engine=%s, or a player like @alice (everyone else votes against them).", cmp.Or(strings.Join(b.engineNames(), "|"), "gnugo"))
	case a.Choice["rated"] == "rated":
		return errorf("Vote games are unrated; leave out rated.")
	case a.Rating.Auto:
		return errorf("handicap=auto needs two ratings, and the room has none: give a number, like handicap=2.")
	}
	return nil
}

// voteDefaultClock is a vote game's clock against a person when neither
// the challenge nor the room's settings give one: the room's side needs
// time like any side, and nobody can ask a room to resign.
var voteDefaultClock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * 24 * time.Hour}

// roomReminderText reminds the room, in its room, that its vote is due.
func (b *core) roomReminderText(match *gobot.Match, g *game.Game, left time.Duration) string {
	return fmt.Sprintf("The room's move in game #%d (move %d) — %s left to vote: %s; the first vote opens the voting window (%s). A room that casts no vote in time loses on time.",
		match.ID, g.MoveNumber()+1, protocol.FormatDuration(left), b.cmd("vote <point>"), protocol.FormatDuration(match.Vote.Window))
}

// roomTimeoutText says why the room lost on time (before g records it).
func roomTimeoutText(match *gobot.Match, g *game.Game) string {
	if len(match.Vote.Ballots) > 0 { // only resign votes, short of the quorum (playVote)
		return fmt.Sprintf("The room ran out of time: no move was voted for move %d, and resigning was short of the quorum.", g.MoveNumber()+1)
	}
	return fmt.Sprintf("The room ran out of time: nobody voted for move %d by its deadline.", g.MoveNumber()+1)
}

// newVote starts the voting of a game whose window is w.
func newVote(w time.Duration) *gobot.Vote { return &gobot.Vote{Window: w} }

// voteStartNote tells the room how it plays, for a game's start message.
func (b *core) voteStartNote(match *gobot.Match) string {
	if !match.Has(gobot.SideRoom) {
		return ""
	}
	s := fmt.Sprintf(" The room plays %s by vote: %s, %s or %s; the first vote of a turn opens the voting window (%s), and when it closes the move with the most votes is played.",
		match.Find(gobot.SideRoom).Color.Name(), b.cmd("vote <point>"), b.cmd("vote pass"), b.cmd("vote resign"), protocol.FormatDuration(match.Vote.Window))
	if flow.RoomClock(match) {
		s += " The room's turns run on the clock too: a room that casts no vote in time loses on time."
	}
	return s
}

// voteChallengeText is a vote challenge's announcement.
func (b *core) voteChallengeText(c *gobot.Challenge) string {
	colour := map[string]string{"black": " (the room takes Black)", "white": " (the room takes White)", "random": " (colours by lot)"}[c.Color]
	return fmt.Sprintf("%s challenges %s to play against the room, by vote%s: %s; voting window %s, unrated.%s %s, answer with %s or %s.",
		protocol.Mention(c.From), protocol.Mention(c.To), colour, say.Config(c.Config, c.Clock)+say.VacationHeader(c.NoVacation), protocol.FormatDuration(c.VoteWindow), say.ClockNote(c.Clock),
		protocol.Mention(c.To), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID)))
}

// voteRefusal explains, to a caller who is not a player of the vote game
// a play, pass, resign or undo refers to, that the room moves by vote;
// undo is refused in vote games to everyone. nil: not a vote game, or
// the caller plays it (the opponent moves as usual).
func (b *core) voteRefusal(tx gobot.Tx, r *protocol.Request, id gobot.GameID) error {
	var match *gobot.Match
	if id != 0 {
		m, err := tx.Match(id)
		if err != nil {
			return nil // findGame says what is wrong
		}
		match = m
	} else {
		mine, err := tx.ActiveGames(r.User.ID)
		if err != nil {
			return err
		}
		var here []*gobot.Match
		for _, g := range mine {
			if r.DM || g.Room == r.Room || (g.Thread && g.Parent == r.Room) {
				here = append(here, g)
			}
		}
		switch {
		case len(here) == 1 && here[0].Has(gobot.SideRoom) && r.Command == "undo":
			match = here[0] // the room's opponent has no undo either
		case len(here) > 0:
			return nil // the caller's own game here comes first
		default:
			games, err := roomVoteGames(tx, r)
			if err != nil || len(games) == 0 {
				return err
			}
			match = games[0]
			if len(games) > 1 && r.Command != "undo" {
				return b.severalVoteGames(r, games)
			}
		}
	}
	if !match.Has(gobot.SideRoom) || !match.Active() {
		return nil
	}
	if r.Command == "undo" {
		return errorf("Vote games have no undo: the room's moves are chosen by vote, and a vote is not taken back.")
	}
	if match.ColorOf(r.User.ID) != game.Empty {
		return nil
	}
	return b.votesInstead(match, r)
}

// voteInstead is the vote that does what r's command would (play,
// pass, resign).
func voteInstead(r *protocol.Request) string {
	if what := map[string]string{"pass": "vote pass", "resign": "vote resign"}[r.Command]; what != "" {
		return what
	}
	return "vote <point>"
}

// votesInstead refuses a move, pass or resignation in vote game match
// from someone who is not its opponent: the room moves by vote.
func (b *core) votesInstead(match *gobot.Match, r *protocol.Request) error {
	return say.Shortest(fmt.Sprintf("In game #%d the room plays against %s by vote: %s (the last vote you cast counts). The first vote of a turn opens the voting window (%s); then the move with the most votes is played.",
		match.ID, protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), b.cmd(voteInstead(r)), protocol.FormatDuration(match.Vote.Window)),
		fmt.Sprintf("In game #%d the room plays by vote: %s (the last vote you cast counts).", match.ID, b.cmd(voteInstead(r))))
}

// severalVoteGames refuses a move, pass or resignation without a game
// in a room that plays several games by vote: each is voted on, with
// its number.
func (b *core) severalVoteGames(r *protocol.Request, games []*gobot.Match) error {
	var ids []string
	for _, g := range games {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return errorf("This room plays %s by vote: %s, naming the game (the last vote you cast counts).",
		protocol.ListSome(ids), b.cmd(fmt.Sprintf("%s #%d", voteInstead(r), games[0].ID)))
}

// roomVoteLines are games' lines for the room's vote games, for the
// room's members (the room plays them), beyond mine, the caller's own
// games already listed (the opponent's).
func (b *core) roomVoteLines(tx gobot.Tx, r *protocol.Request, mine []*gobot.Match) []string {
	if r.DM {
		return nil
	}
	games, err := roomVoteGames(tx, r)
	if err != nil {
		b.log.Error("games: the room's vote games", "err", err)
		return nil
	}
	var lines []string
	for _, m := range games {
		if slices.ContainsFunc(mine, func(g *gobot.Match) bool { return g.ID == m.ID }) {
			continue
		}
		l, err := load(m)
		if err != nil {
			continue // listed as damaged where it is read as a game
		}
		rc := m.Find(gobot.SideRoom).Color
		s := fmt.Sprintf("#%d, the room (%s) vs %s by vote (%s, move %d): ", m.ID, rc.Name(), protocol.Mention(m.Find(gobot.SideRoom).Opponent().ToMove()), game.SizeString(l.G.Config().Width, l.G.Config().Height), l.G.MoveNumber())
		switch {
		case l.G.Phase() == game.Scoring:
			s += "being scored by those who voted"
		case !m.Find(gobot.SideRoom).Moves(l.G):
			s += "their move"
		default:
			s += "the room's vote"
			for _, bl := range m.Vote.Ballots {
				if bl.By == r.User.ID {
					s += ", yours: " + bl.Move
				}
			}
			if left := timeLeft(m, r.Time); left != "" && !m.Vote.WindowOpen() { // the room's clock
				s += ", " + left
			}
		}
		lines = append(lines, s)
	}
	return lines
}

// roomVoteGames are the active vote games of r's room (its thread's, in
// a thread).
func roomVoteGames(tx gobot.Tx, r *protocol.Request) ([]*gobot.Match, error) {
	games, err := tx.RoomGames(r.Room, true)
	if gobot.Damaged(err) != nil {
		err = nil // the readable ones
	}
	if err != nil {
		return nil, err
	}
	var out []*gobot.Match
	for _, g := range games {
		if g.Has(gobot.SideRoom) {
			out = append(out, g)
		}
	}
	return out, nil
}

// votedHere are the active vote games in r's room in which the caller
// has voted: their scoring commands act for the room (findGame).
func votedHere(tx gobot.Tx, r *protocol.Request) ([]*gobot.Match, error) {
	games, err := roomVoteGames(tx, r)
	if err != nil {
		return nil, err
	}
	var out []*gobot.Match
	for _, g := range games {
		if g.Vote.Voted(r.User.ID) {
			out = append(out, g)
		}
	}
	return out, nil
}

// findVoteGame resolves the game a vote is for: "#7", or the room's one
// active vote game.
func findVoteGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID) (*gobot.Match, error) {
	if id != 0 {
		match, err := findGame(tx, b, r, id, false)
		if err != nil {
			return nil, err
		}
		if !match.Has(gobot.SideRoom) {
			return nil, errorf("Game #%d is not a vote game: its players move with %s.", match.ID, b.cmd("play"))
		}
		return match, nil
	}
	games, err := roomVoteGames(tx, r)
	if err != nil {
		return nil, err
	}
	switch len(games) {
	case 0:
		eng := "gnugo"
		if names := b.engineNames(); len(names) > 0 {
			eng = names[0]
		}
		return nil, errorf("No vote game is being played here. Start one with %s (the room against the computer) or %s.", b.cmd("challenge engine="+eng+" vote=10m"), b.cmd("challenge @player vote=1h"))
	case 1:
		return games[0], nil
	}
	var ids []string
	for _, g := range games {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return nil, errorf("Which game? The room votes in several: %s. Add the game, like %s.", protocol.ListSome(ids), b.cmd(fmt.Sprintf("vote %s #%d", voteWord(r), games[0].ID)))
}

// voteWord is the move a vote request names, as typed (clipped), for examples.
func voteWord(r *protocol.Request) string {
	for _, a := range r.Args {
		if !strings.HasPrefix(a, "#") {
			return protocol.ClipArg(a)
		}
	}
	return "<point>"
}

func cmdVote(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	resign := a.Choice["resign"] == "resign"
	switch {
	case resign && len(a.Points) > 0:
		return Result{}, errorf("Vote for one move: a point, pass, or resign — not %s and resign.", protocol.Echo(a.Points[0]))
	case !resign && len(a.Points) == 0:
		return Result{}, errorf("vote needs your move: a point like E5, pass, or resign.")
	}
	match, err := findVoteGame(tx, b, r, a.Game)
	if err != nil {
		return Result{}, err
	}
	if !match.Active() {
		return Result{}, errorf("Game #%d is over: %s.", match.ID, say.ResultWords(match.Result))
	}
	if match.Room != r.Room && !(match.Thread && match.Parent == r.Room) {
		return Result{}, errorf("The room of game #%d votes in its own room; vote there.", match.ID)
	}
	if match.ColorOf(r.User.ID) != game.Empty {
		return Result{}, errorf("You play against the room in game #%d: make your moves with %s; the others vote.", match.ID, b.cmd("play"))
	}
	l, err := load(match)
	if err != nil {
		return Result{}, err
	}
	switch {
	case l.G.Phase() == game.Scoring:
		return Result{}, errorf("Game #%d is being scored: those who voted mark dead stones with %s and accept for the room with %s.", match.ID, b.cmd("dead <point>"), b.cmd("done"))
	case !match.Find(gobot.SideRoom).Moves(l.G):
		return Result{}, say.Shortest(fmt.Sprintf("It's %s's turn in game #%d; the room votes again after that move.", protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), match.ID),
			fmt.Sprintf("It's the room's opponent's turn in game #%d; the room votes again after that move.", match.ID))
	}
	if c := match.Vote.Closes; !c.IsZero() && !r.Time.Before(c) {
		return Result{}, errorf("The vote for move %d of game #%d has closed; its move is being played. Vote again on the room's next turn.", l.G.MoveNumber()+1, match.ID)
	}
	if c := match.Vote.Closes; c.IsZero() && !match.Deadline.IsZero() && !r.Time.Before(match.Deadline) {
		return Result{}, errorf("The room's time for move %d of game #%d ran out before this vote: it loses on time.", l.G.MoveNumber()+1, match.ID)
	}
	move := "resign"
	if !resign {
		if move, err = legalVote(l, a.Points[0]); err != nil {
			return Result{}, err
		}
	}
	v := match.Vote
	opened := v.Closes.IsZero()
	reopened := opened && len(v.Ballots) > 0 // a window that stayed open without a move (playVote)
	if opened {
		// The room has answered: its clock stops with the time it had
		// (given back if the window stays open without a move).
		switch {
		case !flow.RoomClock(match):
		case match.Paused(): // vacation.go: the opponent's vacation stopped it
			v.Left = match.PausedLeft
		case !match.Deadline.IsZero():
			v.Left = match.Deadline.Sub(r.Time)
		}
		v.Closes = r.Time.Add(v.Window)
		match.Deadline = v.Closes
	}
	changed, before := false, ""
	for i := range v.Ballots {
		if v.Ballots[i].By == r.User.ID {
			changed, before = true, v.Ballots[i].Move
			v.Ballots[i].Move, v.Ballots[i].At = move, r.Time
		}
	}
	if !changed {
		v.Ballots = append(v.Ballots, gobot.Ballot{By: r.User.ID, Move: move, At: r.Time})
	}
	if !v.Voted(r.User.ID) {
		v.Voters = append(v.Voters, r.User.ID)
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	match.Updated = r.Time
	if err := tx.PutMatch(match); err != nil {
		return Result{}, err
	}
	me, number := protocol.Mention(r.User.ID), l.G.MoveNumber()+1
	var text string
	switch {
	case reopened:
		text = fmt.Sprintf("%s votes %s: the vote for move %d of game #%d runs again and closes in %s.", me, move, number, match.ID, protocol.FormatDuration(v.Window))
	case opened:
		text = fmt.Sprintf("%s votes %s and opens the vote for move %d of game #%d: it closes in %s. Everyone here but %s may vote with %s.",
			me, move, number, match.ID, protocol.FormatDuration(v.Window), protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), b.cmd("vote <point>"))
	case changed && before == move:
		text = fmt.Sprintf("%s already votes %s.", me, move)
	case changed:
		text = fmt.Sprintf("%s changes their vote from %s to %s.", me, before, move)
	default:
		text = fmt.Sprintf("%s votes %s.", me, move)
	}
	text += fmt.Sprintf("\nVotes for move %d: %s; %s.", number, tallyText(v.Ballots), windowLeft(v.Closes, r.Time))
	return reply(protocol.Reply{Game: match.ID, Title: fmt.Sprintf("Game #%d · vote for move %d", match.ID, number), Text: text}, Effects{})
}

// legalVote checks that the room may play s now, with play's reasons when
// it may not, and returns the move as a ballot holds it ("E5", "pass").
func legalVote(l *loaded, s string) (string, error) {
	cfg := l.G.Config()
	p, err := game.ParsePoint(s, cfg.Width, cfg.Height)
	if err != nil {
		if errors.Is(err, game.ErrOffBoard) {
			return "", errorf("%s is off the board: this %s board goes from A1 to %s.", protocol.ClipArg(s), game.SizeString(cfg.Width, cfg.Height), game.Pt(cfg.Width-1, 0).GTP(cfg.Height))
		}
		if strings.Contains(strings.ToUpper(s), "I") && !strings.EqualFold(s, "pass") {
			return "", errorf("%s: there is no column I on a go board (the letters skip from H to J).", protocol.Echo(s))
		}
		return "", errorf("%s isn't a point: write a column letter and a row number, like D4.", protocol.Echo(s))
	}
	// Tried on a copy: the game itself changes only when the window closes.
	try, err := game.Replay(l.G.Record())
	if err != nil {
		return "", err
	}
	rc := try.ToMove()
	if p.IsPass() {
		if err := try.Play(rc, game.Pass); err != nil {
			return "", err
		}
		return "pass", nil
	}
	name := p.GTP(cfg.Height)
	if try.At(p) != game.Empty {
		return "", errorf("%s is occupied — choose an empty point.", name)
	}
	if err := try.Play(rc, p); err != nil {
		if errors.Is(err, game.ErrKo) {
			return "", errorf("%s would retake the ko — the room must play elsewhere first (a ko threat).", name)
		}
		return "", err
	}
	return name, nil
}

// voteCount is one move's votes.
type voteCount struct {
	move  string
	n     int
	first int // when its first ballot was cast, as an index
}

// countVotes counts ballots by move, most votes first (ties: the move
// voted first).
func countVotes(ballots []gobot.Ballot) []voteCount {
	var out []voteCount
	for i, bl := range ballots {
		j := slices.IndexFunc(out, func(c voteCount) bool { return c.move == bl.Move })
		if j < 0 {
			out = append(out, voteCount{move: bl.Move, first: i})
			j = len(out) - 1
		}
		out[j].n++
	}
	slices.SortStableFunc(out, func(a, b voteCount) int { return cmp.Or(b.n-a.n, a.first-b.first) })
	return out
}

// tallyText is the tally in words: "E5 (2 votes), C3 (1)".
func tallyText(ballots []gobot.Ballot) string {
	var parts []string
	for i, c := range countVotes(ballots) {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%d vote%s)", c.move, c.n, say.Plural(c.n)))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%d)", c.move, c.n))
		}
	}
	if len(parts) == 0 {
		return "none yet"
	}
	return protocol.ListSome(parts)
}

// voteMarks are the votes to draw on the board while a window is open:
// the count on each voted point.
func voteMarks(l *loaded) map[game.Point]int {
	v := l.Match.Vote
	if v == nil || v.Closes.IsZero() || !l.Match.Find(gobot.SideRoom).Moves(l.G) {
		return nil
	}
	cfg := l.G.Config()
	marks := map[game.Point]int{}
	for _, bl := range v.Ballots {
		if p, err := game.ParsePoint(bl.Move, cfg.Width, cfg.Height); err == nil && !p.IsPass() {
			marks[p]++
		}
	}
	if len(marks) == 0 {
		return nil
	}
	return marks
}

// voteLine is the game reply's line about the room's turn: how to vote,
// and while a window is open, the tally and when it closes.
func (b *core) voteLine(l *loaded, now time.Time) string {
	if !l.Match.Find(gobot.SideRoom).Moves(l.G) {
		return ""
	}
	v := l.Match.Vote
	if v.Closes.IsZero() && len(v.Ballots) > 0 { // stayed open without a move (playVote)
		return fmt.Sprintf("Votes: %s; the window stays open: the next vote runs it again for %s (%s).", tallyText(v.Ballots), protocol.FormatDuration(v.Window), b.cmd("vote <point>"))
	}
	if v.Closes.IsZero() {
		return fmt.Sprintf("The room votes: %s, %s or %s; the first vote opens the voting window (%s).", b.cmd("vote <point>"), b.cmd("vote pass"), b.cmd("vote resign"), protocol.FormatDuration(v.Window))
	}
	if !now.Before(v.Closes) {
		return fmt.Sprintf("Votes: %s; %s.", tallyText(v.Ballots), windowLeft(v.Closes, now))
	}
	return fmt.Sprintf("Votes: %s; %s (%s to vote).", tallyText(v.Ballots), windowLeft(v.Closes, now), b.cmd("vote <point>"))
}

// windowLeft says when a voting window closing at closes does, seen at
// now: "the window closes in 4s", rounded up to the second so that it
// never says 0s while open; once past, that it has closed.
func windowLeft(closes, now time.Time) string {
	d := closes.Sub(now)
	if d <= 0 {
		return "the window has closed, and its move is being played"
	}
	if d < 10*time.Minute {
		d = (d + time.Second - 1).Truncate(time.Second)
	}
	return "the window closes in " + protocol.FormatDuration(d)
}

// voteWindowDue takes a due vote game whose due item is the room's
// open window (its close, Match.Deadline while it runs), so the clock
// treats it as no timeout or reminder; it is due once the window's time
// has come. The room's clock before its first vote is the clock job's,
// as a player's.
func voteWindowDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	match := item.Match
	if !match.Vote.WindowOpen() {
		return false, false
	}
	l, err := load(match)
	if err != nil || !match.Find(gobot.SideRoom).Moves(l.G) {
		return false, false
	}
	return true, !now.Before(match.Vote.Closes)
}

// closeVoteWindow closes a vote game's window if it is due: it counts
// the ballots, plays the move with the most votes (or resigns), and
// says so in the room. A second process, or this one again, finds the
// window closed (the turn moved on) and does nothing.
func closeVoteWindow(c *JobCall) (Done, error) {
	b, tx, match, now := c.bot, c.Tx, c.Match, c.Now
	if !match.Active() || !match.Vote.WindowOpen() || now.Before(match.Vote.Closes) {
		return Done{}, nil
	}
	l, err := load(match)
	if err != nil {
		return Done{}, err
	}
	if !match.Find(gobot.SideRoom).Moves(l.G) {
		return Done{}, nil
	}
	// A window that stays open without a move closes again later, at
	// the same move: its close time tells the two apart.
	step := fmt.Sprintf("game %d vote at move %d resume %d closes %d", match.ID, l.G.MoveCount(), len(l.G.Record().Resumes), match.Vote.Closes.UnixNano())
	what, err := b.playVote(l, now)
	if err != nil {
		return Done{}, err
	}
	if l.G.Phase() == game.Over {
		flow.Finish(match, l.G, now)
	}
	match.Record = l.G.Record()
	match.Updated = now
	b.engineDue(l, now)
	if err := tx.PutMatch(match); err != nil {
		return Done{}, err
	}
	var fx Effects
	if b.engineJob(match, l.G) != jobNone {
		fx.wake(match.ID)
	}
	rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, what)
	fx.notify(protocol.Message{Room: match.Room, Reply: rep})
	return done("window closed", step, fx)
}

// playVote plays the room's move its ballots chose, clears them, and says
// what happened with the tally. Resigning needs a quorum (resignQuorum);
// short of it the move with the most votes other than resign is played,
// a tie drawn by lot (the same lot on every attempt: it hashes the game
// and the move), and when resign was the only vote the window stays open
// without a move. The tally says why.
func (b *core) playVote(l *loaded, now time.Time) (string, error) {
	v, rc := l.Match.Vote, l.Match.Find(gobot.SideRoom).Color
	tally := tallyText(v.Ballots)
	counts := countVotes(v.Ballots)
	resigns, voters := 0, len(v.Ballots)
	var moves []voteCount
	for _, c := range counts {
		if c.move == "resign" {
			resigns = c.n
		} else {
			moves = append(moves, c)
		}
	}
	need := resignQuorum(v)
	number := l.G.MoveNumber() + 1
	if resigns > 0 && 2*resigns > voters && voters >= need {
		endVoteTurn(v)
		if err := l.G.Resign(rc); err != nil {
			return "", err
		}
		return fmt.Sprintf("The room resigns (%d of %d voter%s chose to). Votes: %s.", resigns, voters, say.Plural(voters), tally), nil
	}
	short := "" // why a resignation with votes was not played
	switch {
	case resigns == 0:
	case 2*resigns <= voters:
		short = fmt.Sprintf(" Resigning had %d of %d votes; it needs more than half.", resigns, voters)
	default:
		why := "3 voters"
		if need < 3 {
			why = fmt.Sprintf("%d voter%s here: everyone who voted in the room's last %d turns", need, say.Plural(need), gobot.RecentTurns)
		}
		short = fmt.Sprintf(" Resigning needs %s; %d voted.", why, voters)
	}
	if len(moves) == 0 {
		// Resign was the only vote, short of the quorum: the window
		// stays open, and the room's clock runs again from the time it
		// had when the window opened (a room nobody else votes for loses
		// on time, as one that casts no vote).
		v.Closes = time.Time{}
		l.Match.Deadline = time.Time{}
		if flow.RoomClock(l.Match) {
			l.Match.Deadline = now.Add(v.Left)
			flow.KeepPaused(l.Match, now) // vacation.go
		}
		s := fmt.Sprintf("The vote for move %d stays open: votes %s.%s The next vote runs the window again (%s), and any other move is played over resign.", number, tally, short, b.cmd("vote <point>"))
		if left := timeLeft(l.Match, now); flow.RoomClock(l.Match) && left != "" {
			s += fmt.Sprintf(" The room has %s.", left)
		}
		return s, nil
	}
	left := v.Left
	endVoteTurn(v)
	if flow.RoomClock(l.Match) {
		// The room's clock is charged as a player's: its time ran until
		// its window opened (left is what it had then), the window's
		// own time is free.
		l.Match.Deadline = now.Add(left)
	}
	top := moves[0].n
	var tied []string
	for _, c := range moves {
		if c.n == top {
			tied = append(tied, c.move)
		}
	}
	pick := tied[0]
	tie := ""
	if len(tied) > 1 {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%d|%d", l.Match.ID, l.G.MoveCount(), len(l.G.Record().Resumes))
		pick = tied[h.Sum32()%uint32(len(tied))]
		list := protocol.ListSome(tied)
		if len(tied) == 2 {
			list = tied[0] + " and " + tied[1]
		}
		tie = fmt.Sprintf(" (%s tied; drawn at random)", list)
	}
	cfg := l.G.Config()
	if pick == "pass" {
		if err := l.G.Play(rc, game.Pass); err != nil {
			return "", err
		}
		flow.Moved(l.Match, l.G, rc, now)
		s := fmt.Sprintf("The room passes%s. Votes: %s.%s", tie, tally, short)
		if l.G.Phase() == game.Scoring {
			s += " Both sides passed: the game is being scored; those who voted mark and accept for the room."
		}
		return s, nil
	}
	p, err := game.ParsePoint(pick, cfg.Width, cfg.Height)
	if err != nil {
		return "", err
	}
	before, count := l.G.Captures(rc), l.G.MoveCount()
	if err := l.G.Play(rc, p); err != nil {
		return "", fmt.Errorf("the room's vote %s: %w", pick, err)
	}
	flow.Moved(l.Match, l.G, rc, now)
	s := fmt.Sprintf("The room plays %s%s", pick, tie)
	if n := l.G.Captures(rc) - before; n > 0 {
		s += fmt.Sprintf(", capturing %d stone%s", n, say.Plural(n))
	}
	return s + fmt.Sprintf(". Votes: %s.", tally) + short + autoPassText(l, count), nil
}

// resignQuorum is how many voters a turn's window needs for the room to
// resign (besides more than half of the votes): 3, or every member who
// voted in the room's last gobot.RecentTurns turns (this one included)
// when they are fewer — but 3 on the room's first voted turn, when
// nothing tells yet how many vote here (one voter cannot resign a game
// on its first move). A game stored before the recent turns were kept
// counts everyone who has voted in it.
func resignQuorum(v *gobot.Vote) int {
	var members []gobot.UserID
	add := func(u gobot.UserID) {
		if !slices.Contains(members, u) {
			members = append(members, u)
		}
	}
	for _, turn := range v.Recent {
		for _, u := range turn {
			add(u)
		}
	}
	if v.Recent == nil { // no turn closed since Recent was kept (or before it): every voter so far but this turn's
		for _, u := range v.Voters {
			if !slices.ContainsFunc(v.Ballots, func(b gobot.Ballot) bool { return b.By == u }) {
				add(u)
			}
		}
	}
	if len(members) == 0 {
		// The room's first voted turn: nothing tells how many vote here
		// yet, so a resignation needs the full 3.
		return 3
	}
	for _, bl := range v.Ballots {
		add(bl.By)
	}
	return min(3, len(members))
}

// endVoteTurn closes the room's turn: its voters join the recent turns
// (resignQuorum), its ballots, window and stopped clock are cleared.
func endVoteTurn(v *gobot.Vote) {
	turn := []gobot.UserID{}
	for _, bl := range v.Ballots {
		turn = append(turn, bl.By)
	}
	v.Recent = append(v.Recent, turn)
	if n := len(v.Recent) - (gobot.RecentTurns - 1); n > 0 {
		v.Recent = slices.Delete(v.Recent, 0, n)
	}
	v.Ballots, v.Closes, v.Left = nil, time.Time{}, 0
}

func countBallots(cs []voteCount) int {
	n := 0
	for _, c := range cs {
		n += c.n
	}
	return n
}
