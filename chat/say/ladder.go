package say

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gobotgo/gobot/chat/protocol"
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
// for the change ("you" when it is about them); other errors are
// returned as they are.
func LadderRefused(err error, caller tournament.PlayerID) error {
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
