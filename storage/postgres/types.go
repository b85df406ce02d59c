package postgres

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gobotgo/gobot/chat"
)

// The model and its errors are chat's.
type (
	GameID      = chat.GameID
	ChallengeID = chat.ChallengeID
	UserID      = chat.UserID
	RoomID      = chat.RoomID
	EventID     = chat.EventID
	Game        = chat.Game
	Challenge   = chat.Challenge
	Player      = chat.Player
	Room        = chat.Room
	Tx          = chat.Tx
)

var (
	ErrNotFound  = chat.ErrNotFound
	ErrCorrupt   = chat.ErrCorrupt
	ErrConflict  = chat.ErrConflict
	ErrDuplicate = chat.ErrDuplicate
)

var _ chat.Store = (*Store)(nil)

func encodeGame(g *Game) ([]byte, error)           { return json.Marshal(g) }
func encodeChallenge(c *Challenge) ([]byte, error) { return json.Marshal(c) }
func encodePlayer(p *Player) ([]byte, error)       { return json.Marshal(p) }
func encodeRoom(r *Room) ([]byte, error)           { return json.Marshal(r) }

func decodeGame(id GameID, raw []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", id, ErrCorrupt, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("game #%d: %w: it says it is game #%d", id, ErrCorrupt, g.ID)
	}
	return &g, nil
}

func decodeChallenge(id ChallengeID, raw []byte) (*Challenge, error) {
	var c Challenge
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("challenge #%d: %w: %v", id, ErrCorrupt, err)
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge #%d: %w: it says it is challenge #%d", id, ErrCorrupt, c.ID)
	}
	return &c, nil
}

func decodePlayer(id UserID, raw []byte) (*Player, error) {
	var p Player
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("player %s: %w: %v", id, ErrCorrupt, err)
	}
	return &p, nil
}

func decodeRoom(id RoomID, raw []byte) (*Room, error) {
	var r Room
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("room %s: %w: %v", id, ErrCorrupt, err)
	}
	return &r, nil
}

// damaged collects the records a list could not read into chat's
// *DamagedError (nil when there are none).
type damaged struct{ d chat.DamagedError }

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
