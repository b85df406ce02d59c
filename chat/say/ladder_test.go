package say

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/tournament"
)

func TestLadderTableText(t *testing.T) {
	l := &tournament.Ladder{Range: 2}
	for _, p := range []tournament.PlayerID{"discord:1", "discord:2", "discord:3", "discord:4", "discord:5"} {
		if err := l.Join(p); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	if _, err := l.Challenge("discord:3", "discord:1", at); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Challenge("discord:5", "discord:3", at); err != nil {
		t.Fatal(err)
	}
	got, err := LadderTable(numbered{}, l, Paging{Page: 1, Command: "ladder"})
	if err != nil {
		t.Fatal(err)
	}
	want := "```\n" +
		"rung  name       challenges\n" +
		"   1  name of 1  ← 3\n" +
		"   2  name of 2\n" +
		"   3  name of 3  → 1 ← 5\n" +
		"   4  name of 4\n" +
		"   5  name of 5  → 3\n" +
		"```\n" +
		"5 players; a player may challenge up to 2 places above. → 3: has challenged rung 3; ← 7: challenged by rung 7."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := LadderTable(numbered{}, l, Paging{Page: 2, Command: "ladder"}); err == nil || err.Error() != "There is 1 page; page 2 is past the end." {
		t.Errorf("page 2: %v", err)
	}
	empty, err := LadderTable(numbered{}, &tournament.Ladder{Range: 3}, Paging{Page: 1})
	if err != nil || empty != "Nobody is on the ladder yet: "+Cmd("ladder join")+" puts you on the first rung." {
		t.Errorf("empty: %q, %v", empty, err)
	}
}

// Every ladder refusal in words, for the caller and about another
// player; each under a refusal's limit even with the longest mentions.
func TestLadderRefused(t *testing.T) {
	const me, x, y = "t:me", "t:x", "t:y"
	m := func(u string) string { return protocol.Mention(userOf(tournament.PlayerID(u))) }
	for _, tc := range []struct {
		r    tournament.LadderRefusal
		want string
	}{
		{tournament.LadderRefusal{Problem: tournament.AlreadyOnLadder, Player: me, Rung: 4}, "You are on the ladder already, on rung 4."},
		{tournament.LadderRefusal{Problem: tournament.AlreadyOnLadder, Player: x, Rung: 4}, m(x) + " is on the ladder already, on rung 4."},
		{tournament.LadderRefusal{Problem: tournament.LadderFull}, "The ladder is full: it holds at most 2000 players."},
		{tournament.LadderRefusal{Problem: tournament.NotOnLadder, Player: me}, "You are not on the ladder: " + Cmd("ladder join") + " puts you on the bottom rung."},
		{tournament.LadderRefusal{Problem: tournament.NotOnLadder, Player: x}, m(x) + " is not on the ladder."},
		{tournament.LadderRefusal{Problem: tournament.DefenderNotOnLadder, Player: x}, m(x) + " is not on the ladder; " + Cmd("ladder") + " shows who is."},
		{tournament.LadderRefusal{Problem: tournament.ChallengeSelf, Player: me}, "You can't challenge yourself: challenge a player above you (" + Cmd("ladder") + " shows who)."},
		{tournament.LadderRefusal{Problem: tournament.DefenderNotAbove, Player: x, Places: 1}, m(x) + " is 1 place below you: a challenge goes up the ladder."},
		{tournament.LadderRefusal{Problem: tournament.DefenderTooFar, Player: x, Places: 5, Range: 3}, m(x) + " is 5 places above you; a challenge reaches at most 3 places up."},
		{tournament.LadderRefusal{Problem: tournament.ChallengeGiven, Player: x}, "Your challenge to " + m(x) + " is still open: one challenge at a time, so play it first."},
		{tournament.LadderRefusal{Problem: tournament.ChallengeReceived, Player: x, Other: y}, m(x) + " has an open challenge from " + m(y) + " already: one at a time, so try again once it is played."},
		{tournament.LadderRefusal{Problem: tournament.NoOpenChallenge, Player: x, Other: y}, "There is no open challenge from " + m(x) + " to " + m(y) + "."},
	} {
		err := LadderRefused(fmt.Errorf("wrapped: %w", tc.r), me)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d: %v, want %q", tc.r.Problem, err, tc.want)
		}
		long := tc.r
		long.Player = tournament.PlayerID("matrix:@" + strings.Repeat("x", 250) + ":example.org")
		long.Other = long.Player
		if err := LadderRefused(long, me); len(err.Error()) > protocol.MaxRefusal {
			t.Errorf("%d with long IDs: %d bytes", tc.r.Problem, len(err.Error()))
		}
	}
	other := errors.New("disk on fire")
	if LadderRefused(other, me) != other {
		t.Error("another error was not passed on")
	}
}

// BenchmarkLadderTable shows a 2,000-player ladder with open challenges:
// "page" is what one `ladder` costs (a page of it), "whole" formats every
// page, the whole ladder.
func BenchmarkLadderTable(b *testing.B) {
	l := &tournament.Ladder{Range: 3}
	for i := range tournament.MaxLadderPlayers {
		if err := l.Join(tournament.PlayerID(fmt.Sprint("discord:", 100000+i))); err != nil {
			b.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := 5; i < len(l.Rungs); i += 4 {
		if _, err := l.Challenge(l.Rungs[i], l.Rungs[i-2], at); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("page", func(b *testing.B) {
		for b.Loop() {
			if _, err := LadderTable(numbered{}, l, Paging{Page: 20, Command: "ladder"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			rows := 0
			for p := 1; ; p++ {
				s, err := LadderTable(numbered{}, l, Paging{Page: p, Command: "ladder"})
				if err != nil {
					break
				}
				rows += strings.Count(strings.SplitN(s, "```", 3)[1], "\n") - 2 // less the fence's and the header's line breaks
			}
			if rows != tournament.MaxLadderPlayers {
				b.Fatalf("%d rows", rows)
			}
		}
	})
}
