package ratings

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
)

// Joining rating records (docs/identity.md). A player has one record
// per community, stored under the player's ID (gobot.PlayerOf); a joined
// community's members rate in its list (gobot.StoredCommunityOf). When
// two records of one player meet — two accounts that both have ratings
// in one community are linked, or rooms with ratings are joined into a
// community — the player keeps the one with more rated games, on a tie
// the more recently updated (gobot.KeepRating), and it remembers the
// join so that the player is told.

// Moved is one record moved by a join: From was moved into Community's
// record of Player; Joined is set when the player had a record there
// already (the two were joined: Kept says whether From was kept).
type Moved struct {
	Community gobot.CommunityID
	Player    gobot.UserID
	From      gobot.RatingSource
	Joined    bool
	Kept      bool
}

// move moves r into community c's record of player p, joining it with
// the record p has there, and drops r's own record.
func move(tx gobot.Tx, r *gobot.PlayerRating, c gobot.CommunityID, p gobot.UserID, at time.Time) (Moved, error) {
	m := Moved{Community: c, Player: p, From: r.Source()}
	if r.Community == c && r.User == p {
		return m, nil
	}
	out := *r
	out.Community, out.User = c, p
	there, err := tx.Rating(c, p)
	switch {
	case err == nil:
		m.Joined, m.Kept = true, gobot.KeepRating(r, there)
		out = *gobot.JoinRatings(there, r, c, p, at)
	case !errors.Is(err, gobot.ErrNotFound):
		return m, err
	}
	if err := tx.DeleteRating(r.Community, r.User); err != nil {
		return m, err
	}
	return m, tx.PutRating(&out)
}

// JoinAccounts moves the records of player p's other accounts into p's
// own, community by community: called when accounts are linked.
func JoinAccounts(tx gobot.Tx, p gobot.UserID, at time.Time) ([]Moved, error) {
	accounts, err := gobot.AccountsOf(tx, p)
	if err != nil {
		return nil, err
	}
	var out []Moved
	for _, a := range accounts {
		if a == p {
			continue
		}
		rs, err := tx.UserRatings(a)
		if err != nil {
			return out, err
		}
		for _, r := range rs {
			c, err := gobot.StoredCommunityOf(tx, r.Community)
			if err != nil {
				return out, err
			}
			m, err := move(tx, r, c, p, at)
			if err != nil {
				return out, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// moveAll moves every record of community from into community to, each
// under its player's ID; a *gobot.DamagedError names those it could not
// read, which stay where they are.
func moveAll(tx gobot.Tx, from, to gobot.CommunityID, at time.Time) ([]Moved, error) {
	rs, err := tx.Ratings(from)
	if err != nil && gobot.Damaged(err) == nil {
		return nil, err
	}
	var out []Moved
	for _, r := range rs {
		p, err := gobot.PlayerOf(tx, r.User)
		if err != nil {
			return out, err
		}
		mv, err := move(tx, r, to, p, at)
		if err != nil {
			return out, err
		}
		out = append(out, mv)
	}
	return out, err
}

// Joined is what JoinCommunities did to one joined community: the
// members whose records it merged now (Added), the records it Moved
// (those of members merged before too, if any were left there) and the
// members it no longer joins (Left).
type Joined struct {
	Community gobot.CommunityID
	Name      string
	Added     []gobot.CommunityID
	Left      []gobot.CommunityID
	Renamed   []gobot.CommunityID // joined communities no longer in the config whose lists moved here (a new name)
	Moved     []Moved
	Damaged   error // the member's records that could not be read, left where they are
}

// JoinCommunities brings the store's joined communities to cs: each
// member not yet merged has its records moved into its community's list
// (each under its player's ID, two records of one player joined), and
// the store records it, so that it is done once (a record found under a
// member merged before, which gobot check reports, is moved too: a
// look-up per member); a member left out of cs is recorded as no longer
// joined (its records stay in the joined list; its rooms start a list
// of their own). It returns what changed, for the log. One transaction:
// the caller's.
func JoinCommunities(tx gobot.Tx, cs gobot.Communities, at time.Time) ([]Joined, error) {
	stored, err := tx.JoinedCommunities()
	if err != nil {
		return nil, err
	}
	var out []Joined
	for _, c := range cs.All() {
		i := slices.IndexFunc(stored, func(j *gobot.JoinedCommunity) bool { return j.ID == c.ID })
		j := &gobot.JoinedCommunity{ID: c.ID, Name: c.Name}
		if i >= 0 {
			j = stored[i]
		}
		d := Joined{Community: c.ID, Name: c.Name}
		for _, m := range j.Members {
			if !slices.Contains(c.Members, m) {
				d.Left = append(d.Left, m)
			}
		}
		j.Members = slices.DeleteFunc(j.Members, func(m gobot.CommunityID) bool { return slices.Contains(d.Left, m) })
		for _, m := range c.Members {
			added := !slices.Contains(j.Members, m)
			// A member another joined community held (moved in the
			// config): drop it there first. When that community is no
			// longer in the config at all, it was renamed (or merged
			// into this one): its list moves here.
			for _, o := range stored {
				if !added {
					break
				}
				if o.ID != c.ID && slices.Contains(o.Members, m) {
					o.Members = slices.DeleteFunc(o.Members, func(x gobot.CommunityID) bool { return x == m })
					o.Updated = at
					if err := tx.PutJoinedCommunity(o); err != nil {
						return out, err
					}
					if cs.Joined(o.ID) == nil && !slices.Contains(d.Renamed, o.ID) {
						moved, err := moveAll(tx, o.ID, c.ID, at)
						d.Moved = append(d.Moved, moved...)
						if gobot.Damaged(err) != nil {
							d.Damaged = errors.Join(d.Damaged, err)
						} else if err != nil {
							return out, err
						}
						d.Renamed = append(d.Renamed, o.ID)
					}
				}
			}
			moved, err := moveAll(tx, m, c.ID, at)
			d.Moved = append(d.Moved, moved...)
			if gobot.Damaged(err) != nil {
				// A damaged record stays under the member (gobot check
				// names it); the others move.
				d.Damaged = errors.Join(d.Damaged, err)
			} else if err != nil {
				return out, err
			}
			if added {
				d.Added = append(d.Added, m)
				j.Members = append(j.Members, m)
			}
		}
		if i < 0 || len(d.Added)+len(d.Left) > 0 || j.Name != c.Name {
			j.Name, j.Updated = c.Name, at
			if err := tx.PutJoinedCommunity(j); err != nil {
				return out, err
			}
		}
		if len(d.Added)+len(d.Left)+len(d.Renamed)+len(d.Moved) > 0 || d.Damaged != nil {
			out = append(out, d)
		}
	}
	for _, j := range stored {
		if cs.Joined(j.ID) == nil && len(j.Members) > 0 {
			out = append(out, Joined{Community: j.ID, Name: j.Name, Left: j.Members})
			j.Members, j.Updated = nil, at
			if err := tx.PutJoinedCommunity(j); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// playersJoined is the State under which JoinLinkedPlayers records that
// it has run.
const (
	stateNS           = "ratings"
	statePlayersKey   = "players-joined"
	statePlayersValue = "1"
)

// JoinLinkedPlayers moves, once, the records that accounts linked
// before ratings were per player (issue 46's first links) hold under
// their own account into their player's: a scan of every rating,
// recorded as done in the store's State. It returns the records moved;
// a *gobot.DamagedError names the records it could not read, which stay
// where they are (the others are moved, and the caller commits).
func JoinLinkedPlayers(tx gobot.Tx, at time.Time) ([]Moved, error) {
	if v, err := tx.State(stateNS, statePlayersKey); err == nil && string(v) == statePlayersValue {
		return nil, nil
	} else if err != nil && !errors.Is(err, gobot.ErrNotFound) {
		return nil, err
	}
	rs, err := tx.Ratings("")
	damaged := err
	if gobot.Damaged(err) == nil && err != nil {
		return nil, err
	}
	var out []Moved
	for _, r := range rs {
		p, err := gobot.PlayerOf(tx, r.User)
		if err != nil {
			return out, err
		}
		if p == r.User {
			continue
		}
		m, err := move(tx, r, r.Community, p, at)
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
	if err := tx.PutState(stateNS, statePlayersKey, []byte(statePlayersValue)); err != nil {
		return out, err
	}
	return out, damaged // a damaged record stays where it is (gobot check names it)
}

// Finding is something about ratings and links that gobot check
// reports: not damage, but records where they should not be.
type Finding string

// Check finds rating records left under a joined community's member
// after its merge, records under a linked account that is not its
// player's ID, and links to a player that has no link of its own.
func Check(tx gobot.Tx) ([]Finding, error) {
	var out []Finding
	js, err := tx.JoinedCommunities()
	if err != nil {
		return nil, err
	}
	for _, j := range js {
		for _, m := range j.Members {
			rs, err := tx.Ratings(m)
			if err != nil && gobot.Damaged(err) == nil {
				return out, err
			}
			if len(rs) > 0 {
				out = append(out, Finding(fmt.Sprintf("%d rating record%s left under %s, a member of %s (%q) since its merge: the next start moves them into the community's list",
					len(rs), map[bool]string{true: "", false: "s"}[len(rs) == 1], m, j.ID, j.Name)))
			}
		}
	}
	rs, err := tx.Ratings("")
	if err != nil && gobot.Damaged(err) == nil {
		return out, err
	}
	checked := map[gobot.UserID]bool{}
	for _, r := range rs {
		l, err := tx.AccountLink(r.User)
		if errors.Is(err, gobot.ErrNotFound) {
			continue
		}
		if err != nil {
			return out, err
		}
		if l.Player != r.User {
			out = append(out, Finding(fmt.Sprintf("the rating of %s in %s is under a linked account, not its player's ID %s: it is not used (the player's record is)", r.User, r.Community, l.Player)))
		}
		if !checked[l.Player] {
			checked[l.Player] = true
			if pl, err := tx.AccountLink(l.Player); err != nil || pl.Player != l.Player {
				out = append(out, Finding(fmt.Sprintf("%s is linked to player %s, which has no link of its own: unlink it and link again", r.User, l.Player)))
			}
		}
	}
	return out, nil
}
