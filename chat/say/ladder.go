package say

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/tournament"
)

// LadderTable is the ladder: rung, name, and open challenges ("→ 3"
// challenges rung 3, "← 7" is challenged by rung 7). Only the players on
// the page shown are named.
func LadderTable(n Namer, l *tournament.Ladder, pg Paging) (string, error) {
	if len(l.Rungs) == 0 {
		return fmt.Sprintf("Nobody is on the ladder yet: %s puts you on the first rung.", Cmd("ladder join")), nil
	}
	head := []string{"rung", "name", "challenges"}
	digits := len(strconv.Itoa(len(l.Rungs)))
	w := []int{max(len(head[0]), digits), ladderNameWidth, max(len(head[2]), 5+2*digits)} // "→ 12 ← 15"
	tab := &table{head: head, n: len(l.Rungs), right: map[int]bool{0: true}, width: lineWidth(w)}
	// Only the page's rows are made, so only its players' challenges are
	// looked up: the marks are filled when the page's range is known.
	var marks map[tournament.PlayerID]string
	tab.prepare = func(lo, hi int) { marks = ladderMarks(l, lo, hi) }
	tab.row = func(i int, _ bool) []string {
		p := l.Rungs[i]
		return []string{strconv.Itoa(i + 1), cell(n.Name(userOf(p)), ladderNameWidth), marks[p]}
	}
	notes := fmt.Sprintf("%d player%s; a player may challenge up to %d place%s above. → 3: has challenged rung 3; ← 7: challenged by rung 7.",
		len(l.Rungs), Plural(len(l.Rungs)), l.Range, Plural(l.Range))
	return tab.page(pg, notes)
}

// ladderMarks writes the open challenges of the players on rungs lo+1
// to hi: "→ 3" for a challenge to rung 3, "← 7" for one from rung 7.
func ladderMarks(l *tournament.Ladder, lo, hi int) map[tournament.PlayerID]string {
	on := make(map[tournament.PlayerID]bool, hi-lo)
	for _, p := range l.Rungs[lo:hi] {
		on[p] = true
	}
	// The challenges that concern the page, and the rungs they need.
	var mine []tournament.LadderChallenge
	need := map[tournament.PlayerID]int{}
	for _, c := range l.Open {
		if on[c.Challenger] || on[c.Defender] {
			mine = append(mine, c)
			need[c.Challenger], need[c.Defender] = 0, 0
		}
	}
	if len(mine) == 0 {
		return nil
	}
	for i, p := range l.Rungs {
		if _, ok := need[p]; ok {
			need[p] = i + 1
		}
	}
	gives, gets := map[tournament.PlayerID]string{}, map[tournament.PlayerID]string{}
	for _, c := range mine {
		gives[c.Challenger] = "→ " + strconv.Itoa(need[c.Defender])
		gets[c.Defender] = "← " + strconv.Itoa(need[c.Challenger])
	}
	marks := make(map[tournament.PlayerID]string, len(on))
	for p := range on {
		marks[p] = strings.TrimSpace(gives[p] + " " + gets[p])
	}
	return marks
}

// ladderNameWidth is how much of a name the ladder shows.
const ladderNameWidth = nameWidth + 2

// LadderRefused words a tournament.LadderRefusal for caller, who asked
// for the change ("you" when it is about them), and the door's
// flow.LadderRefusal; other errors are returned as they are.
func LadderRefused(err error, caller tournament.PlayerID) error {
	var door flow.LadderRefusal
	if errors.As(err, &door) {
		return ladderRefusal(door)
	}
	var e tournament.LadderRefusal
	if !errors.As(err, &e) {
		return err
	}
	who := protocol.Mention(userOf(e.Player))
	other := protocol.Mention(userOf(e.Other))
	you := e.Player == caller
	switch e.Problem {
	case tournament.AlreadyOnLadder:
		if you {
			return Refusef("You are on the ladder already, on rung %d.", e.Rung)
		}
		return Shortest(fmt.Sprintf("%s is on the ladder already, on rung %d.", who, e.Rung), "That player is on the ladder already.")
	case tournament.LadderFull:
		return Refusef("The ladder is full: it holds at most %d players.", tournament.MaxLadderPlayers)
	case tournament.NotOnLadder:
		if you {
			return Refusef("You are not on the ladder: %s puts you on the bottom rung.", Cmd("ladder join"))
		}
		return Shortest(fmt.Sprintf("%s is not on the ladder.", who), "That player is not on the ladder.")
	case tournament.DefenderNotOnLadder:
		return Shortest(fmt.Sprintf("%s is not on the ladder; %s shows who is.", who, Cmd("ladder")), fmt.Sprintf("That player is not on the ladder; %s shows who is.", Cmd("ladder")))
	case tournament.ChallengeSelf:
		return Refusef("You can't challenge yourself: challenge a player above you (%s shows who).", Cmd("ladder"))
	case tournament.DefenderNotAbove:
		return Shortest(fmt.Sprintf("%s is %d place%s below you: a challenge goes up the ladder.", who, e.Places, Plural(e.Places)),
			fmt.Sprintf("That player is %d place%s below you: a challenge goes up the ladder.", e.Places, Plural(e.Places)))
	case tournament.DefenderTooFar:
		return Shortest(fmt.Sprintf("%s is %d places above you; a challenge reaches at most %d place%s up.", who, e.Places, e.Range, Plural(e.Range)),
			fmt.Sprintf("That player is %d places above you; a challenge reaches at most %d place%s up.", e.Places, e.Range, Plural(e.Range)))
	case tournament.ChallengeGiven:
		return Shortest(fmt.Sprintf("Your challenge to %s is still open: one challenge at a time, so play it first.", who),
			"Your last challenge is still open: one challenge at a time, so play it first.")
	case tournament.ChallengeReceived:
		return Shortest(fmt.Sprintf("%s has an open challenge from %s already: one at a time, so try again once it is played.", who, other),
			"That player has an open challenge already: one at a time, so try again once it is played.")
	case tournament.NoOpenChallenge:
		return Shortest(fmt.Sprintf("There is no open challenge from %s to %s.", who, other), "There is no such open challenge.")
	}
	return err
}

// The words of ladders' commands and events (chat/ladder.go).

// LadderName is "Room ladder (L1)".
func LadderName(l *gobot.Ladder) string {
	return fmt.Sprintf("%s (L%d)", clean(l.Name), l.ID)
}

// LadderMade announces a ladder made: its games' settings, its range,
// its forfeit time and how to join.
func LadderMade(l *gobot.Ladder) string {
	s := fmt.Sprintf("%s: a ladder on %dx%d, komi %g, clock %s", LadderName(l), l.Size, l.Size, l.Rules.Komi, protocol.FormatClock(l.Clock))
	if l.Rated {
		s += ", rated"
	}
	s += fmt.Sprintf(". A player may challenge up to %d place%s above", l.ChallengeRange, Plural(l.ChallengeRange))
	if l.ForfeitAfter > 0 {
		s += fmt.Sprintf("; a challenge not answered within %s is forfeited", protocol.FormatDuration(l.ForfeitAfter))
	}
	return s + fmt.Sprintf(". Join with %s: you enter at the bottom.", Cmd("ladder join"))
}

// LadderJoined says u joined l, on its bottom rung.
func LadderJoined(l *gobot.Ladder, u gobot.UserID) string {
	return fmt.Sprintf("%s joined %s on rung %d, the bottom. Challenge a player up to %d place%s above with %s.",
		protocol.Mention(u), LadderName(l), len(l.Rungs), l.ChallengeRange, Plural(l.ChallengeRange), Cmd("ladder challenge @name"))
}

// LadderLeft says u left l (taken off by by, when another), those below
// moving up, and the games of u's open challenges ended without result.
func LadderLeft(l *gobot.Ladder, u, by gobot.UserID, aborted []gobot.GameID) string {
	s := fmt.Sprintf("%s left %s: those below move up one.", protocol.Mention(u), LadderName(l))
	if by != u {
		s = fmt.Sprintf("%s took %s off %s: those below move up one.", protocol.Mention(by), protocol.Mention(u), LadderName(l))
	}
	for _, id := range aborted {
		s += fmt.Sprintf(" Game #%d, their challenge's, ends without result.", id)
	}
	return s
}

// LadderChallenged says a ladder challenge was made and its game begun:
// who plays Black, and by when the defender answers.
func LadderChallenged(l *gobot.Ladder, c gobot.LadderChallenge, rung int) string {
	s := fmt.Sprintf("%s challenges %s (rung %d) on %s: game #%d begins, %s with Black.",
		protocol.Mention(c.Challenger), protocol.Mention(c.Defender), rung, LadderName(l), c.Game, protocol.Mention(c.Challenger))
	if !c.Deadline.IsZero() {
		s += fmt.Sprintf(" %s answers with a first move by %s, or forfeits.", protocol.Mention(c.Defender), c.Deadline.UTC().Format("Jan 2 15:04 MST"))
	}
	return s
}

// LadderForfeited is what a forfeited challenge's game says: late did
// not move in time.
func LadderForfeited(l *gobot.Ladder, late gobot.UserID, defender bool) string {
	if defender {
		return fmt.Sprintf("%s did not answer the challenge on %s in time: they forfeit.", protocol.Mention(late), LadderName(l))
	}
	return fmt.Sprintf("%s did not play their first move of the challenge on %s in time: they forfeit.", protocol.Mention(late), LadderName(l))
}

// LadderResultLine is a ladder game's result on the ladder, under the
// game's own result.
func LadderResultLine(l *gobot.Ladder, r gobot.LadderResult) string {
	how := ""
	if r.Forfeit {
		how = " by forfeit"
	}
	switch r.Winner {
	case r.Challenger:
		return fmt.Sprintf("%s beat %s%s and took their place on %s; those between moved down one.", protocol.Mention(r.Challenger), protocol.Mention(r.Defender), how, LadderName(l))
	case r.Defender:
		return fmt.Sprintf("%s kept their place on %s%s against %s: nothing moved.", protocol.Mention(r.Defender), LadderName(l), how, protocol.Mention(r.Challenger))
	}
	return fmt.Sprintf("The challenge on %s ended without result: nothing moved.", LadderName(l))
}

// LadderLines are a room's ladders, one line each.
func LadderLines(ls []*gobot.Ladder) string {
	if len(ls) == 0 {
		return fmt.Sprintf("No ladders here yet; %s makes one.", Cmd(`ladder new "Room ladder" challenge=3`))
	}
	var lines []string
	for _, l := range ls {
		state := fmt.Sprintf("%d open challenge%s", len(l.Challenges), Plural(len(l.Challenges)))
		if l.Closed {
			state = "closed"
		}
		lines = append(lines, fmt.Sprintf("%s — %d player%s, %dx%d, %s", LadderName(l), len(l.Rungs), Plural(len(l.Rungs)), l.Size, l.Size, state))
	}
	return strings.Join(lines, "\n")
}

// ladderRefusal words the door's refusals of a ladder command
// (flow.LadderRefusal).
func ladderRefusal(e flow.LadderRefusal) error {
	switch e.Problem {
	case flow.NoLadderHere:
		return Refusef("There is no ladder here; anyone can make one with %s.", Cmd(`ladder new "Room ladder" challenge=3`))
	case flow.WhichLadder:
		var names []string
		for _, l := range e.Choices {
			names = append(names, fmt.Sprintf("L%d", l.ID))
		}
		return Shortest(fmt.Sprintf("There are several ladders here (%s): name one, like %s.", protocol.ListSome(names), Cmd(fmt.Sprintf("ladder show L%d", e.Choices[0].ID))),
			fmt.Sprintf("There are several ladders here: name one, like %s.", Cmd(fmt.Sprintf("ladder show L%d", e.Choices[0].ID))))
	case flow.NoSuchLadder:
		return Refusef("There is no such ladder in this room; %s lists them.", Cmd("ladders"))
	case flow.NotLadderOrganiser:
		return Refusef("Only %s's organiser and the room's admins can do that.", LadderName(e.Ladder))
	case flow.LadderClosed:
		return Refusef("%s is closed: it takes no more players or challenges.", LadderName(e.Ladder))
	}
	return e
}

// LadderAbandoned is what a challenge's game says when a player left
// the ladder: it ends without result.
func LadderAbandoned(l *gobot.Ladder, u gobot.UserID) string {
	return fmt.Sprintf("%s left %s: this challenge's game ends without result.", protocol.Mention(u), LadderName(l))
}

// LadderClosedNow says l was closed.
func LadderClosedNow(l *gobot.Ladder) string {
	s := fmt.Sprintf("%s is closed: it takes no more players or challenges.", LadderName(l))
	if n := len(l.Challenges); n > 0 {
		s += fmt.Sprintf(" The %d challenge%s open now %s played out.", n, Plural(n), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	return s
}

// LadderPage is the line with the link to a ladder's web page.
func LadderPage(url string, expires time.Time) string {
	return fmt.Sprintf("Every rung, the open challenges with their boards, and the latest results (web page, until %s):\n%s", expires.UTC().Format("2 Jan 2006"), url)
}
