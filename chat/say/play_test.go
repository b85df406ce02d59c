package say

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

type names map[gobot.UserID]string

func (n names) Name(u gobot.UserID) string { return n[u] }

func TestPlayRefusal(t *testing.T) {
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: game.Rules{Komi: 6.5}})
	if err != nil {
		t.Fatal(err)
	}
	l := &flow.Loaded{Match: &gobot.Match{ID: 7, Black: "t:alice", White: "t:bob"}, G: g}
	d4 := game.Pt(3, 5)
	for _, c := range []struct {
		err  error
		want string
	}{
		{flow.NotYourTurn{Game: 7, Next: "t:bob"}, "It's not your turn: " + protocol.Mention("t:bob") + " is to play in game #7."},
		{flow.TooLate{Game: 7, By: time.Millisecond}, "Too late: your time in game #7 ran out 1s ago — the game is lost on time."},
		{flow.IllegalMove{Point: d4, Err: game.ErrOccupied}, "D4 is occupied — choose an empty point."},
		{flow.NoStone{Point: d4}, "There is no stone at D4 to mark."},
		{flow.NotYourMove{Last: game.White}, "You can only ask to take back your own last move; the last move was White's."},
		{flow.PauseUsedUp{}, "Game #7 has used its 10m of pause; play on."},
	} {
		got := PlayRefusal(names{}, l, c.err)
		var r protocol.Refusal
		if !errors.As(got, &r) || got.Error() != c.want {
			t.Errorf("PlayRefusal(%v) = %q, want the refusal %q", c.err, got, c.want)
		}
	}
	// The rules' own refusals pass as they are: chat words them.
	if got := PlayRefusal(names{}, l, flow.IllegalMove{Point: d4, Err: game.ErrSuicide}); got != game.ErrSuicide {
		t.Errorf("a suicide = %v, want game.ErrSuicide", got)
	}
}

func TestFollowedKept(t *testing.T) {
	g, _ := game.New(game.Config{Width: 9, Height: 9})
	l := &flow.Loaded{Match: &gobot.Match{ID: 7}, G: g}
	if said, why := Followed(l, flow.Followed{}); said != "" || why != "" {
		t.Errorf("no plan: %q, %q", said, why)
	}
}

// A word that is no point of the board is refused in the same words
// wherever a point is read: play, dead, plan, vote (and a review's
// board, chat/web), each from flow's own refusal of it.
func TestOnePointWording(t *testing.T) {
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: game.Rules{Komi: 6.5}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"E5", "pass", "pass"} {
		p, _ := game.ParsePoint(m, 9, 9)
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatal(err)
		}
	}
	scoring := &flow.Loaded{Match: &gobot.Match{ID: 7, Black: "t:alice", White: "t:bob"}, G: g}
	for word, why := range map[string]flow.VoteRefusal{"Z9": flow.VoteOffBoard, "I5": flow.VoteNoColumnI, "E": flow.VoteNotAPoint} {
		_, perr := game.ParsePoint(word, 9, 9)
		want := protocol.PointError(word, 9, 9, perr)
		play := BadPoint(word, g.Config(), perr)
		derr := flow.NotAStone{Word: word, Err: perr} // what marking it in the scoring refuses
		dead := PlayRefusal(names{}, scoring, derr)
		fresh, _ := game.New(game.Config{Width: 9, Height: 9})
		_, lerr := flow.CheckLine(fresh, game.White, []string{"C3", word})
		plan := PlanRefusal(&gobot.Match{ID: 7}, fresh.Config(), lerr)
		vote := VoteRefused(voteGame(t), &flow.VoteRefused{Why: why, Move: 1, Point: word})
		for what, got := range map[string]error{"play": play, "dead": dead, "vote": vote} {
			if got == nil || got.Error() != want {
				t.Errorf("%s %s: %v\nwant %s", what, word, got, want)
			}
		}
		if plan == nil || plan.Error() != "Move 2 of the line: "+want+" Nothing was planned." {
			t.Errorf("plan C3 %s: %v\nwant the words %s", word, plan, want)
		}
	}
	if want := "Z9 is off the board: this 9x9 board goes from A1 to J9."; BadPoint("Z9", g.Config(), game.ErrOffBoard).Error() != want {
		t.Errorf("off the board: %v, want %s", BadPoint("Z9", g.Config(), game.ErrOffBoard), want)
	}
}
