package chat

import (
	"context"
	"fmt"
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/game"
)

// Ratings in the bot (docs/rating.md): flow rates a game in the
// transaction that ends it (ratings.Rate); say words ratings and ranks.

// communityOf returns where r's ratings are kept: the adapter's
// Community, else the room.
func communityOf(r *protocol.Request) gobot.CommunityID {
	if r.Community != "" {
		return r.Community
	}
	return gobot.CommunityID(r.Room)
}

// where is where r comes from as tournaments and ladders are found:
// in a joined community, every room it joins sees its tournaments and
// ladders (docs/identity.md).
func (b *core) where(r *protocol.Request) flow.Where {
	w := flow.Where{Room: r.Room}
	if j := b.cfg.Communities.Joined(r.Community); j != nil {
		w.Community, w.Rooms = j.ID, j.RoomList()
	}
	return w
}

// rankLabel is u's rank in c for display ("5k?"); "" if unreadable.
func (b *core) rankLabel(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) string {
	rec, err := ratings.PlayerRating(tx, c, u)
	if err != nil {
		b.log.Warn("reading a rating", "community", c, "user", u, "err", err)
		return ""
	}
	return rec.Player().RankLabel()
}

// rateGame rates a game that ended in this transaction (ratings.Rate),
// logging a damaged rating that left it unrated.
func (b *core) rateGame(tx gobot.Tx, match *gobot.Match, g *game.Game) error {
	rated, err := ratings.Rate(tx, match, g)
	b.logUnrated(match.ID, rated)
	return err
}

// logUnrated logs a game that ended unrated because a rating is damaged.
func (b *core) logUnrated(id gobot.GameID, rated ratings.Rated) {
	if rated.Damaged != nil {
		b.log.Error("game ends unrated: a rating is damaged", "game", id, "err", rated.Damaged)
	}
}

// stateRank is `settings rank=5k`: a starting rank before the first
// rated game in this community.
func (b *core) stateRank(tx gobot.Tx, r *protocol.Request, v string) error {
	return say.RankRefusal(ratings.StateRank(tx, communityOf(r), r.User.ID, v, r.Time))
}

// cmdRating shows a player's rating in this community.
func cmdRating(call *Call) (Result, error) {
	tx, r, a := call.Tx, call.Req, call.Args
	who := r.User.ID
	if a.User != "" {
		who = a.User
	}
	rec, found, err := ratings.FindRating(tx, communityOf(r), who)
	if err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Title: "Rating", Text: guide.RatingCard(who, rec, found)}}, nil
}

// cmdTop shows the community's leaderboard.
func cmdTop(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	c := communityOf(r)
	all, err := tx.Ratings(c)
	if err != nil && len(all) == 0 {
		return Result{}, err
	}
	if err != nil {
		b.log.Error("leaderboard", "community", c, "err", err)
	}
	rs := ratings.Leaderboard(all)
	if len(rs) == 0 {
		return Result{Reply: protocol.Reply{Text: guide.NoLeaderboard()}}, nil
	}
	return Result{Reply: protocol.Reply{Title: "Leaderboard", Text: guide.Leaderboard(namer(tx), rs)}}, nil
}

// JoinCommunities brings the store to the joined communities of the
// config (docs/identity.md), in one transaction, before the bot serves:
// the ratings of members joined since the last start move into their
// community's list (ratings.JoinCommunities), and records that linked
// accounts held apart move into their player's, once
// (ratings.JoinLinkedPlayers). What moved is logged.
func (b *Bot) JoinCommunities(ctx context.Context) error {
	var joined []ratings.Joined
	var players []ratings.Moved
	var damaged error
	err := b.store.Update(ctx, func(tx gobot.Tx) error {
		var err error
		if joined, err = ratings.JoinCommunities(tx, b.cfg.Communities, b.timeSource.Now()); err != nil {
			return err
		}
		players, err = ratings.JoinLinkedPlayers(tx, b.timeSource.Now())
		if damaged = nil; gobot.Damaged(err) != nil {
			damaged, err = err, nil
		}
		return err
	})
	if damaged != nil {
		b.log.Error("linked accounts' ratings: damaged records left where they are (gobot check names them)", "err", damaged)
	}
	if err != nil {
		return fmt.Errorf("joining communities' ratings: %w", err)
	}
	for _, j := range joined {
		kept := 0
		for _, m := range j.Moved {
			if m.Joined {
				kept++
			}
		}
		if len(j.Renamed) > 0 {
			b.log.Info("community renamed: its ratings moved to the new name", "community", j.Community, "name", j.Name, "from", j.Renamed)
		}
		if len(j.Added) > 0 {
			b.log.Info("community joined: ratings merged", "community", j.Community, "name", j.Name, "members", j.Added,
				"records", len(j.Moved), "players with two records, the one with more games kept", kept)
		}
		if j.Damaged != nil {
			b.log.Error("community joined: damaged ratings left under their member (gobot check names them)", "community", j.Community, "err", j.Damaged)
		}
		if len(j.Left) > 0 {
			b.log.Warn("community no longer joins members: their ratings stay in the community's list, their rooms start their own", "community", j.Community, "members", j.Left)
		}
	}
	if len(players) > 0 {
		b.log.Info("linked accounts' ratings joined into their players'", "records", len(players))
	}
	return nil
}
