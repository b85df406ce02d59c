package say

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// The words of room-vote games (docs/vote.md; chat/vote.go).

// VoteChallengeRefused words flow.CheckVoteChallenge's refusals;
// engines are the engines' names. Other errors are returned as they are.
func VoteChallengeRefused(err error, engines []string) error {
	var p flow.VoteChallengeProblem
	if !errors.As(err, &p) {
		return err
	}
	switch p {
	case flow.VoteInDM:
		return Refusef("A vote game is played by a room: challenge from the room whose members will vote.")
	case flow.VoteAlone:
		return Refusef("A vote game needs the room's opponent: engine=%s, or a player like @alice (everyone else votes against them).", cmp.Or(strings.Join(engines, "|"), "gnugo"))
	case flow.VoteRated:
		return Refusef("Vote games are unrated; leave out rated.")
	}
	return Refusef("handicap=auto needs two ratings, and the room has none: give a number, like handicap=2.")
}

// VoteChallenge is a vote challenge's announcement; vacation is what the
// game's header adds about vacation.
func VoteChallenge(c *gobot.Challenge, vacation string) string {
	colour := map[string]string{"black": " (the room takes Black)", "white": " (the room takes White)", "random": " (colours by lot)"}[c.Color]
	return fmt.Sprintf("%s challenges %s to play against the room, by vote%s: %s; voting window %s, unrated.%s %s, answer with %s or %s.",
		protocol.Mention(c.From), protocol.Mention(c.To), colour, Config(c.Config, c.Clock)+vacation, protocol.FormatDuration(c.VoteWindow), ClockNote(c.Clock),
		protocol.Mention(c.To), Cmd(fmt.Sprintf("accept #%d", c.ID)), Cmd(fmt.Sprintf("decline #%d", c.ID)))
}

// VoteStartNote tells the room how it plays, for a game's start message
// ("" unless the room plays).
func VoteStartNote(match *gobot.Match) string {
	if !match.Has(gobot.SideRoom) {
		return ""
	}
	s := fmt.Sprintf(" The room plays %s by vote: %s, %s or %s; the first vote of a turn opens the voting window (%s), and when it closes the move with the most votes is played.",
		match.Find(gobot.SideRoom).Color.Name(), Cmd("vote <point>"), Cmd("vote pass"), Cmd("vote resign"), protocol.FormatDuration(match.Vote.Window))
	if flow.RoomClock(match) {
		s += " The room's turns run on the clock too: a room that casts no vote in time loses on time."
	}
	return s
}

// RoomReminder reminds the room, in its room, that its vote is due.
func RoomReminder(match *gobot.Match, g *game.Game, left time.Duration) string {
	return fmt.Sprintf("The room's move in game #%d (move %d) — %s left to vote: %s; the first vote opens the voting window (%s). A room that casts no vote in time loses on time.",
		match.ID, g.MoveNumber()+1, protocol.FormatDuration(left), Cmd("vote <point>"), protocol.FormatDuration(match.Vote.Window))
}

// RoomTimeout says why the room lost on time (before g records it).
func RoomTimeout(match *gobot.Match, g *game.Game) string {
	if len(match.Vote.Ballots) > 0 { // only resign votes, short of the quorum (flow.CloseVote)
		return fmt.Sprintf("The room ran out of time: no move was voted for move %d, and resigning was short of the quorum.", g.MoveNumber()+1)
	}
	return fmt.Sprintf("The room ran out of time: nobody voted for move %d by its deadline.", g.MoveNumber()+1)
}

// RoomMoves words flow.VoteTurn's refusal of command (play, pass,
// resign, undo); other errors are returned as they are.
func RoomMoves(err error, command string) error {
	var e flow.RoomMoves
	switch {
	case !errors.As(err, &e):
		return err
	case len(e.Games) > 1:
		return severalVoteGames(command, e.Games)
	case e.Undo:
		return noVoteUndo()
	}
	return VotesInstead(e.Match, command)
}

// noVoteUndo refuses undo in a vote game, to everyone.
func noVoteUndo() error {
	return Refusef("Vote games have no undo: the room's moves are chosen by vote, and a vote is not taken back.")
}

// voteInstead is the vote that does what command would (play, pass,
// resign).
func voteInstead(command string) string {
	if what := map[string]string{"pass": "vote pass", "resign": "vote resign"}[command]; what != "" {
		return what
	}
	return "vote <point>"
}

// VotesInstead refuses a move, pass or resignation (command) in vote
// game match from someone who is not its opponent: the room moves by
// vote.
func VotesInstead(match *gobot.Match, command string) error {
	return Shortest(fmt.Sprintf("In game #%d the room plays against %s by vote: %s (the last vote you cast counts). The first vote of a turn opens the voting window (%s); then the move with the most votes is played.",
		match.ID, protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), Cmd(voteInstead(command)), protocol.FormatDuration(match.Vote.Window)),
		fmt.Sprintf("In game #%d the room plays by vote: %s (the last vote you cast counts).", match.ID, Cmd(voteInstead(command))))
}

// severalVoteGames refuses a move, pass or resignation (command) without
// a game in a room that plays several games by vote: each is voted on,
// with its number.
func severalVoteGames(command string, games []*gobot.Match) error {
	return Refusef("This room plays %s by vote: %s, naming the game (the last vote you cast counts).",
		protocol.ListSome(gameIDs(games)), Cmd(fmt.Sprintf("%s #%d", voteInstead(command), games[0].ID)))
}

func gameIDs(games []*gobot.Match) []string {
	var ids []string
	for _, g := range games {
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	return ids
}

// NotVoteGame refuses a vote in a game that is not a vote game.
func NotVoteGame(match *gobot.Match) error {
	return Refusef("Game #%d is not a vote game: its players move with %s.", match.ID, Cmd("play"))
}

// NoVoteGame refuses a vote in a room that plays no vote game; engine
// names an engine for the example.
func NoVoteGame(engine string) error {
	return Refusef("No vote game is being played here. Start one with %s (the room against the computer) or %s.", Cmd("challenge engine="+engine+" vote=10m"), Cmd("challenge @player vote=1h"))
}

// WhichVoteGame refuses a vote without a game in a room that votes in
// several; word is the vote as typed, for the example.
func WhichVoteGame(games []*gobot.Match, args []string) error {
	word := "<point>" // the move the vote names, as typed (clipped)
	if i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "#") }); i >= 0 {
		word = protocol.ClipArg(args[i])
	}
	return Refusef("Which game? The room votes in several: %s. Add the game, like %s.", protocol.ListSome(gameIDs(games)), Cmd(fmt.Sprintf("vote %s #%d", word, games[0].ID)))
}

// VoteTwoMoves refuses a vote for a point and resigning at once; point
// is the point as typed.
func VoteTwoMoves(point string) error {
	return Refusef("Vote for one move: a point, pass, or resign — not %s and resign.", protocol.Echo(point))
}

// VoteNoMove refuses a vote without a move.
func VoteNoMove() error { return Refusef("vote needs your move: a point like E5, pass, or resign.") }

// VoteElsewhere refuses a vote for match from another room.
func VoteElsewhere(match *gobot.Match) error {
	return Refusef("The room of game #%d votes in its own room; vote there.", match.ID)
}

// VoteRefused words why flow.CastVote refused a vote in l.
func VoteRefused(l *flow.Loaded, e *flow.VoteRefused) error {
	match := l.Match
	switch e.Why {
	case flow.VoterPlays:
		return Refusef("You play against the room in game #%d: make your moves with %s; the others vote.", match.ID, Cmd("play"))
	case flow.VoteScoring:
		return Refusef("Game #%d is being scored: those who voted mark dead stones with %s and accept for the room with %s.", match.ID, Cmd("dead <point>"), Cmd("done"))
	case flow.VoteNotRoomsTurn:
		return Shortest(fmt.Sprintf("It's %s's turn in game #%d; the room votes again after that move.", protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), match.ID),
			fmt.Sprintf("It's the room's opponent's turn in game #%d; the room votes again after that move.", match.ID))
	case flow.VoteWindowClosed:
		return Refusef("The vote for move %d of game #%d has closed; its move is being played. Vote again on the room's next turn.", e.Move, match.ID)
	case flow.VoteTimeUp:
		return Refusef("The room's time for move %d of game #%d ran out before this vote: it loses on time.", e.Move, match.ID)
	case flow.VoteOffBoard, flow.VoteNoColumnI, flow.VoteNotAPoint:
		cfg := l.G.Config()
		_, err := game.ParsePoint(e.Point, cfg.Width, cfg.Height) // what is wrong, worded as play words it
		return BadPoint(e.Point, cfg, err)
	case flow.VoteOccupied:
		return Refusef("%s is occupied — choose an empty point.", e.Point)
	case flow.VoteKo:
		return Refusef("%s would retake the ko — the room must play elsewhere first (a ko threat).", e.Point)
	}
	return e
}

// VoteCast is the reply to voter's vote in match (flow.CastVote), seen at
// now: its title and text, with the tally.
func VoteCast(match *gobot.Match, c flow.VoteCast, voter gobot.UserID, now time.Time) (title, text string) {
	me, w := protocol.Mention(voter), protocol.FormatDuration(match.Vote.Window)
	switch {
	case c.Reopened:
		text = fmt.Sprintf("%s votes %s: the vote for move %d of game #%d runs again and closes in %s.", me, c.Ballot, c.Move, match.ID, w)
	case c.Opened:
		text = fmt.Sprintf("%s votes %s and opens the vote for move %d of game #%d: it closes in %s. Everyone here but %s may vote with %s.",
			me, c.Ballot, c.Move, match.ID, w, protocol.Mention(match.Find(gobot.SideRoom).Opponent().ToMove()), Cmd("vote <point>"))
	case c.Changed && c.Before == c.Ballot:
		text = fmt.Sprintf("%s already votes %s.", me, c.Ballot)
	case c.Changed:
		text = fmt.Sprintf("%s changes their vote from %s to %s.", me, c.Before, c.Ballot)
	default:
		text = fmt.Sprintf("%s votes %s.", me, c.Ballot)
	}
	text += fmt.Sprintf("\nVotes for move %d: %s; %s.", c.Move, Tally(match.Vote.Ballots), windowLeft(c.Closes, now))
	return fmt.Sprintf("Game #%d · vote for move %d", match.ID, c.Move), text
}

// VoteClosed says what closing the room's window did (flow.CloseVote),
// with the tally and, for a resignation with votes that was not played,
// why; left is the room's clock afterwards, in words ("" without one).
func VoteClosed(match *gobot.Match, c flow.VoteClosed, left string) string {
	tally := tallyWords(c.Tally)
	if c.Resigned {
		return fmt.Sprintf("The room resigns (%d of %d voter%s chose to). Votes: %s.", c.Resigns, c.Voters, Plural(c.Voters), tally)
	}
	short := "" // why a resignation with votes was not played
	switch {
	case c.Resigns == 0:
	case 2*c.Resigns <= c.Voters:
		short = fmt.Sprintf(" Resigning had %d of %d votes; it needs more than half.", c.Resigns, c.Voters)
	default:
		why := "3 voters"
		if c.Quorum < 3 {
			why = fmt.Sprintf("%d voter%s here: everyone who voted in the room's last %d turns", c.Quorum, Plural(c.Quorum), gobot.RecentTurns)
		}
		short = fmt.Sprintf(" Resigning needs %s; %d voted.", why, c.Voters)
	}
	if c.Open {
		s := fmt.Sprintf("The vote for move %d stays open: votes %s.%s The next vote runs the window again (%s), and any other move is played over resign.", c.Move, tally, short, Cmd("vote <point>"))
		if flow.RoomClock(match) && left != "" {
			s += fmt.Sprintf(" The room has %s.", left)
		}
		return s
	}
	tie := ""
	if len(c.Tied) > 1 {
		list := protocol.ListSome(c.Tied)
		if len(c.Tied) == 2 {
			list = c.Tied[0] + " and " + c.Tied[1]
		}
		tie = fmt.Sprintf(" (%s tied; drawn at random)", list)
	}
	if c.Played == "pass" {
		s := fmt.Sprintf("The room passes%s. Votes: %s.%s", tie, tally, short)
		if c.Scoring {
			s += " Both sides passed: the game is being scored; those who voted mark and accept for the room."
		}
		return s
	}
	s := fmt.Sprintf("The room plays %s%s", c.Played, tie)
	if c.Captured > 0 {
		s += fmt.Sprintf(", capturing %d stone%s", c.Captured, Plural(c.Captured))
	}
	return s + fmt.Sprintf(". Votes: %s.", tally) + short
}

// Tally is the tally of ballots in words: "E5 (2 votes), C3 (1)".
func Tally(ballots []gobot.Ballot) string { return tallyWords(flow.CountVotes(ballots)) }

func tallyWords(counts []flow.VoteCount) string {
	var parts []string
	for i, c := range counts {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("%s (%d vote%s)", c.Move, c.N, Plural(c.N)))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%d)", c.Move, c.N))
		}
	}
	if len(parts) == 0 {
		return "none yet"
	}
	return protocol.ListSome(parts)
}

// VoteLine is the game reply's line about the room's turn: how to vote,
// and while a window is open, the tally and when it closes ("" when the
// room is not to move).
func VoteLine(l *flow.Loaded, now time.Time) string {
	if !l.Match.Find(gobot.SideRoom).Moves(l.G) {
		return ""
	}
	v := l.Match.Vote
	if v.Closes.IsZero() && len(v.Ballots) > 0 { // stayed open without a move (flow.CloseVote)
		return fmt.Sprintf("Votes: %s; the window stays open: the next vote runs it again for %s (%s).", Tally(v.Ballots), protocol.FormatDuration(v.Window), Cmd("vote <point>"))
	}
	if v.Closes.IsZero() {
		return fmt.Sprintf("The room votes: %s, %s or %s; the first vote opens the voting window (%s).", Cmd("vote <point>"), Cmd("vote pass"), Cmd("vote resign"), protocol.FormatDuration(v.Window))
	}
	if !now.Before(v.Closes) {
		return fmt.Sprintf("Votes: %s; %s.", Tally(v.Ballots), windowLeft(v.Closes, now))
	}
	return fmt.Sprintf("Votes: %s; %s (%s to vote).", Tally(v.Ballots), windowLeft(v.Closes, now), Cmd("vote <point>"))
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

// RoomVoteLine is a game's line, in the games list, for a vote game of
// the room the caller is in (the room plays it): voter's vote while the
// room votes, and left, the room's clock in words ("" without one).
func RoomVoteLine(l *flow.Loaded, voter gobot.UserID, left string) string {
	m := l.Match
	s := fmt.Sprintf("#%d, the room (%s) vs %s by vote (%s, move %d): ", m.ID, m.Find(gobot.SideRoom).Color.Name(), protocol.Mention(m.Find(gobot.SideRoom).Opponent().ToMove()), game.SizeString(l.G.Config().Width, l.G.Config().Height), l.G.MoveNumber())
	switch {
	case l.G.Phase() == game.Scoring:
		return s + "being scored by those who voted"
	case !m.Find(gobot.SideRoom).Moves(l.G):
		if opp := m.Find(gobot.SideRoom).Opponent().ToMove(); opp.Platform() == gobot.EnginePlatform {
			return s + protocol.Mention(opp) + " is thinking"
		}
		return s + "their move"
	}
	s += "the room's vote"
	for _, bl := range m.Vote.Ballots {
		if bl.By == voter {
			s += ", yours: " + bl.Move
		}
	}
	if left != "" && !m.Vote.WindowOpen() { // the room's clock
		s += ", " + left
	}
	return s
}
