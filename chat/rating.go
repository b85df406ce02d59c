package chat

import (
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
