package postgres

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

// The model and its errors are chat's.
type (
	GameID      = gobot.GameID
	ChallengeID = gobot.ChallengeID
	UserID      = gobot.UserID
	RoomID      = gobot.RoomID
	EventID     = gobot.EventID
	Game        = gobot.Game
	Challenge   = gobot.Challenge
	Player      = gobot.Player
	Room        = gobot.Room
	Tx          = gobot.Tx
)

var (
	ErrNotFound  = gobot.ErrNotFound
	ErrCorrupt   = gobot.ErrCorrupt
	ErrConflict  = gobot.ErrConflict
	ErrDuplicate = gobot.ErrDuplicate
)

var _ gobot.Store = (*Store)(nil)

func encodeGame(g *Game) ([]byte, error)           { return storage.EncodeGame(g) }
func encodeChallenge(c *Challenge) ([]byte, error) { return storage.EncodeChallenge(c) }
func encodePlayer(p *Player) ([]byte, error)       { return storage.EncodePlayer(p) }
func encodeRoom(r *Room) ([]byte, error)           { return storage.EncodeRoom(r) }

func decodeGame(id GameID, raw []byte) (*Game, error) {
	g, err := storage.DecodeGame(raw)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", id, ErrCorrupt, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("game #%d: %w: it says it is game #%d", id, ErrCorrupt, g.ID)
	}
	return g, nil
}

func decodeChallenge(id ChallengeID, raw []byte) (*Challenge, error) {
	c, err := storage.DecodeChallenge(raw)
	if err != nil {
		return nil, fmt.Errorf("challenge #%d: %w: %v", id, ErrCorrupt, err)
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge #%d: %w: it says it is challenge #%d", id, ErrCorrupt, c.ID)
	}
	return c, nil
}

func decodePlayer(id UserID, raw []byte) (*Player, error) {
	p, err := storage.DecodePlayer(raw)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w: %v", id, ErrCorrupt, err)
	}
	return p, nil
}

func decodeRoom(id RoomID, raw []byte) (*Room, error) {
	r, err := storage.DecodeRoom(raw)
	if err != nil {
		return nil, fmt.Errorf("room %s: %w: %v", id, ErrCorrupt, err)
	}
	return r, nil
}

// damaged collects the records a list could not read into chat's
// *DamagedError (nil when there are none).
type damaged struct{ d gobot.DamagedError }

func (d *damaged) game(id GameID, err error) {
	d.d.Games = append(d.d.Games, id)
	d.d.Err = errors.Join(d.d.Err, err)
}

func (d *damaged) challenge(id ChallengeID, err error) {
	d.d.Challenges = append(d.d.Challenges, id)
	d.d.Err = errors.Join(d.d.Err, err)
}

func (d *damaged) err() error {
	if len(d.d.Games)+len(d.d.Challenges) == 0 {
		return nil
	}
	e := d.d
	return &e
}
