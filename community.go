package gobot

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Joined communities (docs/identity.md): an operator joins Discord
// servers and Matrix rooms into one community in the config. Their
// members' ratings become one list under the community's own ID
// ("community:go-club"): one leaderboard, one rank and handicap for each
// player, and tournaments and ladders open to all its rooms.

// JoinedPrefix starts the ID of a joined community.
const JoinedPrefix = "community:"

// Community is a joined community: Members are the communities it joins
// (Discord guilds "discord:guild:1234", Matrix rooms
// "matrix:!abc:example.org"), ID where their ratings are kept.
type Community struct {
	Name    string
	ID      CommunityID // JoinedPrefix + the name's slug: "community:go-club"
	Members []CommunityID
	// Rooms are, by platform ("discord", "matrix"), the room where games
	// with players of another platform are posted.
	Rooms map[string]RoomID
}

// Communities are the joined communities of a deployment, made by
// NewCommunities. The zero value joins nothing.
type Communities struct {
	list     []*Community
	byMember map[CommunityID]*Community
	byID     map[CommunityID]*Community
}

// Problems NewCommunities finds, each in a *CommunityError.
var (
	ErrCommunityName      = errors.New("a community needs a name with a letter or digit")
	ErrCommunityDuplicate = errors.New("two communities have this name")
	ErrCommunityEmpty     = errors.New("a community needs at least one member")
	ErrMemberPlatform     = errors.New("not a Discord server or a Matrix room")
	ErrMemberTwice        = errors.New("this member is listed twice")
	ErrMemberElsewhere    = errors.New("this member is in another community")
	ErrRoomPlatform       = errors.New("the room is not of its platform")
)

// CommunityError is what is wrong with the config's community Index
// (from 0): its Member (an index into Members, -1 when the problem is
// the community's own) or its room of platform Room.
type CommunityError struct {
	Index  int
	Member int
	Room   string
	Other  int // ErrCommunityDuplicate, ErrMemberElsewhere: the other community's index
	Err    error
}

func (e *CommunityError) Error() string {
	switch {
	case e.Member >= 0:
		return fmt.Sprintf("community %d, member %d: %v", e.Index, e.Member, e.Err)
	case e.Room != "":
		return fmt.Sprintf("community %d, %s room: %v", e.Index, e.Room, e.Err)
	}
	return fmt.Sprintf("community %d: %v", e.Index, e.Err)
}

func (e *CommunityError) Unwrap() error { return e.Err }

// Slug is a community name made an ID's tail: lower-case letters and
// digits, other runs of characters a single dash ("Go Club!" →
// "go-club"); "" when the name has no letter or digit.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// MemberPlatform is the platform of a community that can be a member:
// "discord" for a Discord server ("discord:guild:1234"), "matrix" for a
// Matrix room ("matrix:!abc:example.org"); "" for any other.
func MemberPlatform(c CommunityID) string {
	s := string(c)
	if id, ok := strings.CutPrefix(s, "discord:guild:"); ok && id != "" && strings.Trim(id, "0123456789") == "" {
		return "discord"
	}
	if id, ok := strings.CutPrefix(s, "matrix:!"); ok && strings.Contains(id, ":") && !strings.ContainsAny(id, " /") {
		return "matrix"
	}
	return ""
}

// NewCommunities checks cs and indexes them. Each community's ID is
// derived from its name (a given ID is replaced). Errors are
// *CommunityError.
func NewCommunities(cs []Community) (Communities, error) {
	out := Communities{byMember: map[CommunityID]*Community{}, byID: map[CommunityID]*Community{}}
	index := map[CommunityID]int{}
	for i := range cs {
		c := cs[i]
		slug := Slug(c.Name)
		if slug == "" {
			return Communities{}, &CommunityError{Index: i, Member: -1, Err: ErrCommunityName}
		}
		c.ID = CommunityID(JoinedPrefix + slug)
		if j, ok := index[c.ID]; ok {
			return Communities{}, &CommunityError{Index: i, Member: -1, Other: j, Err: ErrCommunityDuplicate}
		}
		index[c.ID] = i
		if len(c.Members) == 0 {
			return Communities{}, &CommunityError{Index: i, Member: -1, Err: ErrCommunityEmpty}
		}
		c.Members = slices.Clone(c.Members)
		p := &c
		for j, m := range c.Members {
			if MemberPlatform(m) == "" {
				return Communities{}, &CommunityError{Index: i, Member: j, Err: ErrMemberPlatform}
			}
			if slices.Contains(c.Members[:j], m) {
				return Communities{}, &CommunityError{Index: i, Member: j, Err: ErrMemberTwice}
			}
			if o, ok := out.byMember[m]; ok {
				return Communities{}, &CommunityError{Index: i, Member: j, Other: index[o.ID], Err: ErrMemberElsewhere}
			}
			out.byMember[m] = p
		}
		rooms := map[string]RoomID{}
		for platform, r := range c.Rooms {
			if r.Platform() != platform || r.Local() == "" {
				return Communities{}, &CommunityError{Index: i, Member: -1, Room: platform, Err: ErrRoomPlatform}
			}
			rooms[platform] = r
		}
		c.Rooms = rooms
		out.byID[c.ID] = p
		out.list = append(out.list, p)
	}
	return out, nil
}

// Of is the community whose ratings c's rooms use: the joined community
// c is a member of, else c itself.
func (cs Communities) Of(c CommunityID) CommunityID {
	if j := cs.Joined(c); j != nil {
		return j.ID
	}
	return c
}

// Joined is the joined community c is a member of, or is (c a joined
// community's ID); nil when c is not joined. The result is shared: do
// not change it.
func (cs Communities) Joined(c CommunityID) *Community {
	if j, ok := cs.byMember[c]; ok {
		return j
	}
	return cs.byID[c]
}

// All are the joined communities, in the config's order.
func (cs Communities) All() []*Community { return cs.list }

// ByName is the joined community named name (its name or ID, or the
// name's slug), or nil.
func (cs Communities) ByName(name string) *Community {
	if j := cs.byID[CommunityID(name)]; j != nil {
		return j
	}
	return cs.byID[CommunityID(JoinedPrefix+Slug(name))]
}

// RoomList is the rooms of c that gobot knows of: its rooms for games
// across platforms and its members that are rooms (Matrix rooms), each
// once.
func (c *Community) RoomList() []RoomID {
	var out []RoomID
	for _, p := range []string{"discord", "matrix"} {
		if r, ok := c.Rooms[p]; ok {
			out = append(out, r)
		}
	}
	for _, m := range c.Members {
		if MemberPlatform(m) == "matrix" && !slices.Contains(out, RoomID(m)) {
			out = append(out, RoomID(m))
		}
	}
	return out
}

// JoinedCommunity is a joined community as the store records it: the
// members whose ratings were merged into its list, so that a merge is
// done once (docs/identity.md). A member left out of the config is
// dropped from Members: its rooms rate on their own again.
type JoinedCommunity struct {
	ID      CommunityID
	Name    string
	Members []CommunityID // merged, in the order they were
	Updated time.Time
}

// StoredCommunityOf is the joined community the store records c as a
// member of, else c: where a game or tournament that names c (stored
// before c was joined) is rated now.
func StoredCommunityOf(tx Tx, c CommunityID) (CommunityID, error) {
	if strings.HasPrefix(string(c), JoinedPrefix) {
		return c, nil
	}
	js, err := tx.JoinedCommunities()
	if err != nil {
		return "", err
	}
	for _, j := range js {
		if slices.Contains(j.Members, c) {
			return j.ID, nil
		}
	}
	return c, nil
}

// KeepRating reports whether a is the record to keep when a and b, two
// records of one player in one community, are joined: the one with more
// rated games, on a tie the more recently updated (then a).
func KeepRating(a, b *PlayerRating) bool {
	if a.Games != b.Games {
		return a.Games > b.Games
	}
	return !b.Updated.After(a.Updated)
}
